For HF, we use
```
from transformers import GPT2Tokenizer
tokenizer = GPT2Tokenizer.from_pretrained('gpt2')
text = "xxx"
start = time.time()
encoded_input = tokenizer.encode(truncated_text)
end = time.time()
```
For tiktoken, we just initialize the tokenizer by tiktoken, all the other are the same
```
tokenizer = tiktoken.encoding_for_model("gpt-2")
```
