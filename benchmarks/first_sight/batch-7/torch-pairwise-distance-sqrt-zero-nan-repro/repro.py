# Metric-learning embedding model trained with a simple contrastive loss on a
# pairwise Euclidean distance matrix.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

n_classes, per_class, dim = 8, 16, 32
centers = torch.randn(n_classes, dim) * 3
X = torch.cat([centers[c] + 0.5 * torch.randn(per_class, dim) for c in range(n_classes)])
y = torch.arange(n_classes).repeat_interleave(per_class)

model = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, 16))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def pairwise_dist(emb):
    diff = emb.unsqueeze(1) - emb.unsqueeze(0)          # (B, B, D)
    return torch.sqrt((diff ** 2).sum(-1))               # (B, B)


def contrastive_loss(emb, labels, margin=1.0):
    d = pairwise_dist(emb)
    same = (labels.unsqueeze(0) == labels.unsqueeze(1)).float()
    pos = same * d.pow(2)
    neg = (1 - same) * F.relu(margin - d).pow(2)
    return (pos + neg).mean()


for step in range(6):
    perm = torch.randperm(len(X))[:64]
    emb = model(X[perm])
    loss = contrastive_loss(emb, y[perm])
    opt.zero_grad()
    loss.backward()
    gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
    opt.step()
    print(f"step {step} loss {loss.item():.4f} grad_norm {gnorm.item():.4f}")

print("any nan in weights:", any(torch.isnan(p).any().item() for p in model.parameters()))
