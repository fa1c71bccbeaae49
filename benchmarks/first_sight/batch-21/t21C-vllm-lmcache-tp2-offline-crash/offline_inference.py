    llm = LLM(model=model_name,
              gpu_memory_utilization=0.8,
              enable_chunked_prefill=False,
              max_model_len=16384,
              tensor_parallel_size=2,
              dtype='float16')
