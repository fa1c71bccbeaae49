"""Broken on purpose: the model's weights are already fp16 and the loop also uses a
GradScaler (fp16 mixed precision), which refuses to unscale fp16 gradients."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1)).half()
opt = torch.optim.SGD(model.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler("cpu")
x = torch.randn(8, 16, dtype=torch.float16)
y = torch.randn(8, 1, dtype=torch.float16)
for step in range(2):
    with torch.autocast("cpu", dtype=torch.float16):
        loss = nn.functional.mse_loss(model(x), y)
    print(f"step {step} loss {loss.item():.4f} param dtype {next(model.parameters()).dtype}", flush=True)
    opt.zero_grad()
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(opt)
    scaler.update()
