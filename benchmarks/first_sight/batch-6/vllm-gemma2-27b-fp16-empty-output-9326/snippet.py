from vllm import LLM, SamplingParams

# Set the model ID
model_id = "google/gemma-2-27b-it"  # Change model as needed
tensor_parallel_size = 1  # Adjust as per your hardware

# Sampling parameters
sampling_params = SamplingParams(
    temperature=0.1,
)

# Create an LLM instance
llm = LLM(
    model=model_id,
    dtype="float16",
    max_model_len=4096,
    tensor_parallel_size=tensor_parallel_size,
    disable_custom_all_reduce=True,
)

# Sample prompts
prompts = [
    "Hello, my name is",
    "The president of the United States is",
    "The capital of France is",
    "The future of AI is",
]

# Generate texts from the prompts
outputs = llm.generate(prompts, sampling_params)

# Print the outputs
for output in outputs:
    prompt = output.prompt
    answer = output.outputs[0].text
    print(f"Prompt: {prompt!r}, Generated text: {answer!r}")
