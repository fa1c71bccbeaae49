# fine-tune a small "pretrained" backbone with a new classification head
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)

class Net(nn.Module):
    def __init__(self, n_out=10):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.head = nn.Linear(64, n_out)
    def forward(self, x):
        return self.head(self.backbone(x))

# synthetic 4-class task
N = 4096
X = torch.randn(N, 32)
W = torch.randn(32, 4)
y = (X @ W).argmax(1)

model = Net(n_out=10)          # "pretrained" with 10 classes
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=400)

# freeze backbone, replace head for our 4 classes
for p in model.backbone.parameters():
    p.requires_grad = False
model.head = nn.Linear(64, 4)

print(f"trainable params: {sum(p.numel() for p in model.parameters() if p.requires_grad)}")
step = 0
for epoch in range(5):
    perm = torch.randperm(N)
    for i in range(0, N, 64):
        idx = perm[i:i+64]
        logits = model(X[idx])
        loss = F.cross_entropy(logits, y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        sched.step()
        if step % 40 == 0:
            acc = (logits.argmax(1) == y[idx]).float().mean().item()
            print(f"epoch {epoch} step {step:4d} loss {loss.item():.4f} acc {acc:.3f} lr {sched.get_last_lr()[0]:.2e}")
        step += 1
with torch.no_grad():
    acc = (model(X).argmax(1) == y).float().mean().item()
print(f"final train acc {acc:.3f}")
