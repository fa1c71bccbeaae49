docker run --network llm_network --rm -e HF_HUB_ENABLE_HF_TRANSFER="true" --name llm_server $GPU_OPTION --shm-size 1g \
-p 3000:3000 -v "$(pwd)/tokenizers:/tokenizers" -v "$(pwd)/datafolder:/data" ghcr.io/huggingface/text-generation-inference:1.4.2 \
--tokenizer-config-path $tokenizer \
--model-id $MODEL_ID --port 3000 --quantize awq $NUM_SHARD \
$MAX_INPUT_LENGTH $MAX_TOTAL_TOKENS $MAX_BATCH_PREFILL_TOKENS $MAX_BATCH_TOTAL_TOKENS \
--revision main \
--validation-workers 8  --max-best-of 1  \
--cuda-memory-fraction 0.9 \
--trust-remote-code --max-concurrent-requests 10 --hostname 0.0.0.0

But the concrete execution was with this parameters:
2024-02-27T00:47:11.739605Z  INFO text_generation_launcher: Args { model_id: "LoneStriker/Smaug-34B-v0.1-AWQ", revision: Some("main"), validation_workers: 8, sharded: None, num_shard: Some(2), quantize: Some(Awq), speculate: None, dtype: None, trust_remote_code: true, max_concurrent_requests: 10, max_best_of: 1, max_stop_sequences: 4, max_top_n_tokens: 5, max_input_length: 8000, max_total_tokens: 10000, waiting_served_ratio: 1.2, max_batch_prefill_tokens: 8000, max_batch_total_tokens: Some(10000), max_waiting_tokens: 20, max_batch_size: None, e
