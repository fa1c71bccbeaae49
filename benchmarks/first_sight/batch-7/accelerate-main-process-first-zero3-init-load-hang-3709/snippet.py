from transformers import AutoModelForCausalLM
from accelerate import Accelerator, DeepSpeedPlugin

accelerator = Accelerator(
    deepspeed_plugin=DeepSpeedPlugin(
        zero_stage=3,
    ),
)

with accelerator.main_process_first():
    model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-0.5B-Instruct")

print(f"Model loaded on {accelerator.device}")  # You will never see this print
