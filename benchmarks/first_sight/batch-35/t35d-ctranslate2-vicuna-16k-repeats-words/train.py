# ct2-transformers-converter --model lmsys/vicuna-7b-v1.5-16k --quantization int8_float16 --output_dir vicuna-7b-v1.5-16k --force --copy_files tokenizer.model tokenizer_config.json  special_tokens_map.json
# (CTranslate2 3.18.0; script as posted in the original report, cut at the end in the stored copy)
import os
import ctranslate2
import sentencepiece as spm
import time

from fastchat.conversation import conv_templates, SeparatorStyle

model_dir = "models/vicuna-7b-v1.5-16k/"
generator = ctranslate2.Generator(model_dir, device="cuda", compute_type="int8_float16")
tokenizer = AutoTokenizer.from_pretrained("lmsys/vicuna-7b-v1.5-16k")
conv = conv_templates["vicuna_v1.1"].copy()

inp = "How are you?"
conv.append_message(conv.roles[0], inp)
conv.append_message(conv.roles[1], None)
prompt = conv.get_prompt()

tokens = tokenizer.convert_ids_to_tokens(tokenizer.encode(prompt))
results = generator.generate_batch([tokens], sampling_topk=1, max_l...  # truncated in the stored copy
