from vllm import LLM, SamplingParams
LLM("Qwen/Qwen2.5-VL-7B-Instruct", limit_mm_per_prompt={"image": 20})
