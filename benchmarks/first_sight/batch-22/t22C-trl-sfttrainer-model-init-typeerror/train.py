from transformers import Trainer, AutoModelForCausalLM
from trl import SFTTrainer

def model_init(trial):
    return AutoModelForCausalLM.from_pretrained(
        'Qwen/Qwen2.5-0.5B-Instruct',
        device_map="auto",
        attn_implementation='flash_attention_2',
        torch_dtype='auto',
    )
Trainer(model_init=model_init)
print(SFTTrainer(model_init=model_init))
