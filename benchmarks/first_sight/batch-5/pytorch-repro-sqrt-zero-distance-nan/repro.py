import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)

# toy metric-learning setup: 10 identities, 16-d features -> 32-d embeddings
n_cls, per_cls = 10, 40
centers = torch.randn(n_cls, 16) * 3
X = torch.cat([centers[c] + torch.randn(per_cls, 16) for c in range(n_cls)])
labels = torch.arange(n_cls).repeat_interleave(per_cls)

encoder = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 32))
opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
margin = 1.0

def pairwise_dist(emb):
    diff = emb.unsqueeze(1) - emb.unsqueeze(0)          # (B, B, D)
    return torch.sqrt((diff ** 2).sum(-1))             # (B, B)

def contrastive_loss(emb, y):
    d = pairwise_dist(emb)
    same = (y.unsqueeze(0) == y.unsqueeze(1)).float()
    pos = same * d.pow(2)
    neg = (1 - same) * F.relu(margin - d).pow(2)
    return (pos + neg).mean()

for step in range(6):
    idx = torch.randperm(X.size(0))[:128]
    emb = F.normalize(encoder(X[idx]), dim=1)
    loss = contrastive_loss(emb, labels[idx])
    opt.zero_grad()
    loss.backward()
    gnorm = torch.nn.utils.clip_grad_norm_(encoder.parameters(), 5.0)
    opt.step()
    w = encoder[0].weight
    print(f"step {step} loss {loss.item():.4f} grad_norm {gnorm.item():.4f} "
          f"weight_nan {torch.isnan(w).any().item()}")
