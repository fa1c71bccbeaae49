# binary classifier (click prediction) with a hand-written weighted BCE
import torch, torch.nn as nn
torch.manual_seed(0)

N = 20000
X = torch.randn(N, 20)
w = torch.randn(20) * 3
y = ((X @ w) > 0).float()            # nearly separable labels

model = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
pos_weight = 2.0

def weighted_bce(logits, target):
    p = torch.sigmoid(logits)
    return -(pos_weight * target * torch.log(p) + (1 - target) * torch.log(1 - p)).mean()

step = 0
for epoch in range(30):
    perm = torch.randperm(N)
    for i in range(0, N, 256):
        idx = perm[i:i+256]
        logits = model(X[idx]).squeeze(1)
        loss = weighted_bce(logits, y[idx])
        opt.zero_grad()
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step % 10 == 0 or not torch.isfinite(loss):
            print(f"epoch {epoch:2d} step {step:5d} loss {loss.item():.5f} grad_norm {gn.item():.4f} max|logit| {logits.abs().max().item():.1f}")
        if torch.isnan(loss):
            raise SystemExit("loss is nan, stopping training")
        step += 1
