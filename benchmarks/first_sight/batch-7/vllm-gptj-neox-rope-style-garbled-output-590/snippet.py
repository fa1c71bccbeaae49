from vllm import LLM, SamplingParams

sampling_params = SamplingParams(temperature=0.8, top_p=0.95, max_tokens=128)
llm = LLM(model="EleutherAI/gpt-j-6b")
prompts = ["AI is going to"] * 4
outputs = [t.outputs[0].text for t in llm.generate(prompts, sampling_params)]
