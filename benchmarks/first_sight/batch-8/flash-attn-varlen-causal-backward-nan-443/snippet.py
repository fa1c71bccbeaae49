# Tested with
# flash-attn 2.0.4 (v2.0.4 - d30f2e1cd50185c98ed88c0684b4a603f15bee37)
# torch==2.0.0
# NVIDIA A100-SXM4-80GB
# cuda 11.8
import torch
import flash_attn


q_cuseqlen = torch.tensor([0, 76, 110, 256], device='cuda', dtype=torch.int32)
k_cuseqlen = torch.tensor([0, 1, 2, 3], device='cuda', dtype=torch.int32)
Mq = 256
Mk = 3
H = 1
K = 32

torch.manual_seed(0)
q = torch.randn([Mq, H, K], dtype=torch.float16, device="cuda") * 3
k, v = [torch.randn([Mk, H, K], dtype=torch.float16, device="cuda") * 3 for _ in range(2)]
q.requires_grad_(True)
k.requires_grad_(True)
v.requires_grad_(True)

grad = torch.full_like(q, 1.0)

out = flash_attn.flash_attn_varlen_func(q, k, v, q_cuseqlen, k_cuseqlen, Mq, Mk, causal=True)
out.backward(grad)

print("flash_attn", flash_attn.__version__)
print("Q gradient:", "NaNs!" if q.grad.isnan().any().item() else "OK")
print("K gradient:", "NaNs!" if k.grad.isnan().any().item() else "OK")
print("V gradient:", "NaNs!" if v.grad.isnan().any().item() else "OK")
