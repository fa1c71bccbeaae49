import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

# speaker-ID toy: 40-dim MFCC-like utterance features, 10 speakers
N_CLS, D_IN, EMB = 10, 40, 3
centers = torch.randn(N_CLS, D_IN) * 1.0
y = torch.randint(0, N_CLS, (12000,))
X = centers[y] + torch.randn(12000, D_IN)
train_dl = DataLoader(TensorDataset(X[:10000], y[:10000]), batch_size=128, shuffle=True)
Xv, yv = X[10000:], y[10000:]

class ArcMarginProduct(nn.Module):
    """Additive angular margin (ArcFace) head."""
    def __init__(self, in_features, out_features, s=30.0, m=0.5):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.s, self.m = s, m

    def forward(self, emb, label):
        cosine = F.linear(F.normalize(emb), F.normalize(self.weight))
        theta = torch.acos(cosine)
        target = torch.cos(theta + self.m)
        one_hot = F.one_hot(label, cosine.size(1)).bool()
        logits = torch.where(one_hot, target, cosine)
        return logits * self.s

backbone = nn.Sequential(nn.Linear(D_IN, 128), nn.BatchNorm1d(128), nn.ReLU(),
                         nn.Linear(128, 128), nn.BatchNorm1d(128), nn.ReLU(),
                         nn.Linear(128, EMB))
head = ArcMarginProduct(EMB, N_CLS)
opt = torch.optim.Adam(list(backbone.parameters()) + list(head.parameters()), lr=1e-3)

step = 0
for epoch in range(20):
    backbone.train()
    for xb, yb in train_dl:
        step += 1
        loss = F.cross_entropy(head(backbone(xb), yb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
    backbone.eval()
    with torch.no_grad():
        e = F.normalize(backbone(Xv))
        acc = (F.linear(e, F.normalize(head.weight)).argmax(1) == yv).float().mean().item()
    print(f"== epoch {epoch} val_acc {acc:.4f}")
