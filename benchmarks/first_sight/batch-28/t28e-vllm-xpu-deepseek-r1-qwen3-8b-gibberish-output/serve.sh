model="/llm/models/DeepSeek-R1-0528-Qwen3-8B"
served_model_name="DS-R1-Qwen3-8B"
export VLLM_ALLOW_LONG_MAX_MODEL_LEN=1
export VLLM_WORKER_MULTIPROC_METHOD=spawn
export VLLM_OFFLOAD_WEIGHTS_BEFORE_QUANT=1
vllm serve \
    --model $model \
    --served-model-name $served_model_name \
    --dtype=float16 \
    --enforce-eager \
    --port 8001 \
    --host 0.0.0.0 \
    --trust-remote-code \
    --disable-sliding-window \
    --gpu-memory-util=0.9 \
    --max-num-batched-tokens=8192 \
    --disable-log-requests \
    --enable-prefix-caching \
    --max-model-len=8192 \
    --block-size 64 \
    -tp=1
