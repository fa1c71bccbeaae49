"""Reproduces memory growth from summing a loss that still carries its autograd graph.

The validation loop runs without torch.no_grad() and adds each batch's loss tensor
(not loss.item()) to a running total. Every addition links that batch's graph, and
with it the activations saved for backward, to the total, so memory grows by the
activations of one batch per step until an allocation fails. The process runs under
a memory cap (RLIMIT_AS = memory in use after start-up + 1 GB) standing in for a
GPU. Run: python repro.py > train.log 2>&1
"""

import resource

import torch

HIDDEN, BATCH, STEPS = 2048, 256, 400
torch.manual_seed(0)


def vm_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize")


model = torch.nn.Sequential(
    torch.nn.Linear(HIDDEN, HIDDEN), torch.nn.GELU(), torch.nn.Linear(HIDDEN, HIDDEN)
)
limit = vm_bytes() + int(1e9)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
print(f"eval_batch_size={BATCH} hidden={HIDDEN} eval_steps={STEPS}", flush=True)
model.eval()
total_loss = 0
for step in range(1, STEPS + 1):
    inputs = torch.randn(BATCH, HIDDEN)
    loss = model(inputs).pow(2).mean()
    total_loss += loss
    if step % 5 == 0:
        print(f"eval step {step}: total_loss =", total_loss, flush=True)
print(f"eval loss: {total_loss.item() / STEPS:.4f}")
