import torch
from bitsandbytes.functional import quantize_4bit

data = torch.rand(3000000, 384, device="cuda")
quantize_4bit(data)
