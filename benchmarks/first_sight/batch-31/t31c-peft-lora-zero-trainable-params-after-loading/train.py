from peft import PeftModel
from transformers import LlamaForCausalLM
import torch

orig_model = LlamaForCausalLM.from_pretrained(
   'decapoda-research/llama-7b-hf',
    load_in_8bit=True,
    torch_dtype=torch.float16,
    device_map="auto",
)

out = PeftModel.from_pretrained(orig_model, "tloen/alpaca-lora-7b")
print(out.print_trainable_parameters())
# trainable params: 0 || all params: 6755201024 || trainable%: 0.0
