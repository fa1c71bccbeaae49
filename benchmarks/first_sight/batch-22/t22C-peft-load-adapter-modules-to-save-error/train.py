import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer
from peft import LoraConfig, get_peft_model, PeftModel

# Load tokenizer and base model
model_name = "bert-base-uncased"
tokenizer = AutoTokenizer.from_pretrained(model_name)
base_model = AutoModelForSequenceClassification.from_pretrained(model_name, num_labels=2)

# Create Adapter 1 (Saving 'classifier')
config1 = LoraConfig(
    r=8, lora_alpha=16, lora_dropout=0.1, bias="none",
    target_modules=["query", "value"],
    modules_to_save=["classifier"]
)
lora_model_1 = get_peft_model(base_model, config1)
lora_model_1.save_pretrained("lora_adapter_1")

# Create Adapter 2 (Saving 'classifier' again)
# [remainder of the reporter's script was not preserved]
