import os
from together import Together

client = Together(api_key="my_key")

response = client.chat.completions.create(
    model="meta-llama/Llama-3-70b-chat-hf",
    messages=[{"role": "user", "content": "write `bar` then `foo` three times"}],
    max_tokens=200,
    stop=["test"]
)
print(response.choices[0].message.content)
