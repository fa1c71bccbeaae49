from transformers import AutoProcessor, AutoModel
from swift.tuners import Swift

processor = AutoProcessor.from_pretrained(model_path, trust_remote_code=True)
model = AutoModel.from_pretrained(
    model_path,
    torch_dtype=torch.bfloat16,
    device_map=device,
    trust_remote_code=True,
    attn_implementation="flash_attention_2"
)
# === 注入 LoRA 权重 ===
model = Swift.from_pretrained(model, lora_model_path)
