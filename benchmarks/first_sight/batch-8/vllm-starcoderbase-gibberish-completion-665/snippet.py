from vllm import LLM, SamplingParams

model_path = "starcoderbase-1b"
llm = LLM(model_path)
sampling_params = SamplingParams(temperature=0, top_p=1, best_of=1, top_k=-1)

text = "def main():"
output = llm.generate(text, use_tqdm=False)
print(output[0].outputs[0].text)
