./build/bin/llama-cli -m deepseek-v2-lite-chat-q4_0.gguf -p "how to build  a website?" -n 32 -e -ngl 29 -sm none
