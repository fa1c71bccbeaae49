import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR

torch.manual_seed(0)
print(f"torch {torch.__version__}")

# synthetic 20-class classification, 5% label noise
N, D, C = 50_000, 64, 20
centers = torch.randn(C, D) * 1.5
y_all = torch.randint(0, C, (N,))
X_all = centers[y_all] + torch.randn(N, D)
flip = torch.rand(N) < 0.05
y_all[flip] = torch.randint(0, C, (int(flip.sum()),))
X_tr, y_tr, X_va, y_va = X_all[:45_000], y_all[:45_000], X_all[45_000:], y_all[45_000:]

model = nn.Sequential(
    nn.Linear(D, 128), nn.GELU(),
    nn.Linear(128, 128), nn.GELU(),
    nn.Linear(128, C),
)

base_lr = 0.05
warmup_steps = 200
total_steps = 3000
batch = 128
opt = torch.optim.SGD(model.parameters(), lr=base_lr, momentum=0.9, weight_decay=5e-4)
# linear warmup
sched = LambdaLR(opt, lr_lambda=lambda step: (step + 1) / warmup_steps)

for step in range(total_steps):
    idx = torch.randint(0, len(X_tr), (batch,))
    loss = nn.functional.cross_entropy(model(X_tr[idx]), y_tr[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    if step % 200 == 0 or step == total_steps - 1:
        with torch.no_grad():
            logits = model(X_va)
            val_loss = nn.functional.cross_entropy(logits, y_va).item()
            val_acc = (logits.argmax(1) == y_va).float().mean().item()
        print(f"step {step:4d} | lr {sched.get_last_lr()[0]:.4f} | train_loss {loss.item():.4f} "
              f"| val_loss {val_loss:.4f} | val_acc {val_acc:.3f}")
