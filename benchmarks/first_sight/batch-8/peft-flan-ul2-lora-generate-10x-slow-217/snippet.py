BASE_MODEL = google/flan-ul2
model =  T5ForConditionalGeneration.from_pretrained(BASE_MODEL, device_map="auto")

FINE_TUNED_MODEL_PEFT = 'finetunnedmodel-peft-path/' # contains adapter_model.bin, adapter_config.json
model = PeftModel.from_pretrained(model, FINE_TUNED_MODEL_PEFT, device_map="auto")

output= model.generate(input_id, max_new_tokens= 256)
