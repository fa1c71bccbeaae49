# As posted in the original report (excerpt; the call arguments after `prompt` were cut in the stored copy)
from llama_cpp import Llama

model = Llama(model_path="./tests/models/openchat-3.5-1210.Q3_K_S.gguf",  n_ctx=128, n_batch=128)

questions_and_answers = [
    ("What's the capital of France?", "Paris"),
    ("What is the capital of Canada?", "Ottawa"),
    ("What is the capital of Ghana?", "Accra"),
]

for i, (question, answer) in enumerate(questions_and_answers):
    prompt = f"GPT4 Correct User: Answer in a single word. {question} <|end_of_turn|>\n GPT4 Correct Assistant:"
    result = model.create_completion(prompt)  # further arguments truncated in the stored copy

# Output:
# Segmentation fault (core dumped)
