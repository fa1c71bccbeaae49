tokenizer = AutoTokenizer.from_pretrained("chinese-llama-2-7b", fast=True, trust_remote_code=True)
