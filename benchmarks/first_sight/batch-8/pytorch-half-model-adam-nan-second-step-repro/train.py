import torch
import torch.nn as nn

torch.manual_seed(0)

N, DIM = 16384, 48
x = torch.randn(N, DIM)
w = torch.randn(DIM)
y = (x @ w + 0.5 * torch.randn(N) > 0).long()

model = nn.Sequential(
    nn.Linear(DIM, 512), nn.GELU(),
    nn.Linear(512, 512), nn.GELU(),
    nn.Linear(512, 2),
)
model = model.half()
x = x.half()

opt = torch.optim.Adam(model.parameters(), lr=1e-4)
loss_fn = nn.CrossEntropyLoss()
print(f"dtype={next(model.parameters()).dtype} params={sum(p.numel() for p in model.parameters())}")

BATCH = 256
step = 0
for epoch in range(2):
    perm = torch.randperm(N)
    for i in range(0, N, BATCH):
        idx = perm[i:i + BATCH]
        logits = model(x[idx])
        loss = loss_fn(logits.float(), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step <= 5 or step % 16 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
