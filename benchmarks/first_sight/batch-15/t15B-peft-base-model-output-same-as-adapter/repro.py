base_model = []
peft_model = []
new_model = PeftModel.from_pretrained(base_model, peft_model)
res1 = new_model(**input)
res2 = base_model(**input)
