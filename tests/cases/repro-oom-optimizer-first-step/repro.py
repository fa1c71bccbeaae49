"""Reproduces an OOM at the first optimizer step: Adam's moments are created lazily.

A 2-layer MLP with about 100M fp32 parameters trains under a process memory cap
(RLIMIT_AS = memory in use after start-up + 0.9 GB, standing in for a GPU or a
container limit). Weights (0.4 GB), gradients (0.4 GB) and activations fit, so the
forward and backward passes succeed; optimizer.step() then allocates exp_avg and
exp_avg_sq for every parameter (another 0.8 GB) and the allocation fails inside
Adam's state initialisation. Run: python repro.py > train.log 2>&1
"""

import resource

import torch

HIDDEN, BATCH = 7000, 16
torch.manual_seed(0)


def vm_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize")


model = torch.nn.Sequential(
    torch.nn.Linear(HIDDEN, HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, HIDDEN)
)
limit = vm_bytes() + int(0.9e9)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
n_params = sum(p.numel() for p in model.parameters())
print(f"params={n_params} optimizer=Adam per_device_train_batch_size={BATCH}", flush=True)
for step in range(1, 4):
    inputs = torch.randn(BATCH, HIDDEN)
    loss = model(inputs).pow(2).mean()
    loss.backward()
    print(f"step {step}: forward+backward done, loss={loss.item():.4f}", flush=True)
    optimizer.step()
    optimizer.zero_grad()
    print(f"step {step}: optimizer step done", flush=True)
