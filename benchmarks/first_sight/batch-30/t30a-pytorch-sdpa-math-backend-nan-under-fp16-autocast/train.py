import torch
device = "cuda"

# Load checkpoint
data = torch.load("debug_attention.pt", map_location=device)
q = data['q']
k = data['k']
v = data['v']
mask = data['mask']

with torch.autocast(device_type="cuda", dtype=torch.float16):
    with torch.backends.cuda.sdp_kernel(enable_mem_efficient=True):
        y = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask = mask.to(device))
        if torch.isnan(y).any() or torch.isinf(y).any():
            print("Invalid tensor for memory efficient!")
        else:
            print("Valid tensor for memory efficient!")

with torch.autocast(device_type="cuda", dtype=torch.float16):
    with torch.backends.cuda.sdp_kernel(enable_mem_efficient=False):
        y = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask = mask.to(device))
