from transformers import GPT2TokenizerFast
t = GPT2TokenizerFast.from_pretrained("gpt2")
t.add_special_tokens({'pad_token': '[PAD]'})
t.padding_side = "left"
e = t("ABC","DEF",padding="max_length",max_length=3)
print(list(zip(e['input_ids'],e.sequence_ids())))
