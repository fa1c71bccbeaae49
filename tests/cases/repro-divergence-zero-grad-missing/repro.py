"""Reproduces a loss that falls and then blows up because the loop never calls zero_grad().

A small MLP classifier is trained with SGD (lr 1e-3, momentum 0.9) in a hand-written loop
that calls loss.backward() and optimizer.step() but never optimizer.zero_grad(). PyTorch adds
each backward pass into .grad, so every step applies the sum of all gradients seen so far: the
first steps look like strong momentum and the loss falls, then the stale sum keeps pushing the
weights past the minimum, the loss climbs, and the logged gradient norm grows without bound.
The same loop with optimizer.zero_grad() before backward keeps improving. Prints one line
every 10 steps. Run: python repro.py > train.log
"""

import torch

LR, MOMENTUM, EPOCHS, BATCH = 1e-3, 0.9, 3, 32
torch.manual_seed(0)
features = torch.randn(2048, 20)
labels = (features @ torch.randn(20, 5)).argmax(dim=1)
model = torch.nn.Sequential(torch.nn.Linear(20, 64), torch.nn.ReLU(), torch.nn.Linear(64, 5))
optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM)
print(f"model=mlp(20-64-5) optimizer=SGD momentum={MOMENTUM} batch_size={BATCH} epochs={EPOCHS}")
step = 0
for epoch in range(1, EPOCHS + 1):
    order = torch.randperm(len(features))
    for start in range(0, len(features), BATCH):
        batch = order[start : start + BATCH]
        loss = torch.nn.functional.cross_entropy(model(features[batch]), labels[batch])
        loss.backward()  # bug: no optimizer.zero_grad(), so .grad keeps accumulating
        optimizer.step()
        step += 1
        if step % 10 == 0:
            grad_norm = torch.norm(torch.stack([p.grad.norm() for p in model.parameters()]))
            line = f"epoch {epoch} | step {step} | loss {loss.item():.4f}"
            print(f"{line} | grad_norm={grad_norm:.2f}")
