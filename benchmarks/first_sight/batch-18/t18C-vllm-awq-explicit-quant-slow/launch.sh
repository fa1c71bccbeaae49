export MODEL_ID=hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4 

docker run \
-e VLLM_USE_V1=1 \
--ipc=host \
-p "${MODEL_PORT}:8000" \
--env "HUGGING_FACE_HUB_TOKEN=${HUGGING_FACE_HUB_TOKEN}" \
--env "VLLM_LOGGING_LEVEL=${VLLM_LOGGING_LEVEL}" \
-v "${HF_HOME}:/root/.cache/huggingface" \
-v ~/.cache/vllm/torch_compile_cache:/root/.cache/vllm/torch_compile_cache \
vllm/vllm-openai:latest \
--model ${MODEL_ID} \
--tokenizer hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4 \
--max-model-len 8192 \
--quantization awq
