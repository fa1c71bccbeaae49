from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("BAAI/glm-2b", trust_remote_code=True)
