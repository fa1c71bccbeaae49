import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

N_IDS = 200
FEAT = 128
EMB = 64


class IdentitySampler:
    """P identities x K samples per batch, as usual for metric learning."""

    def __init__(self, feats, labels, p=16, k=4):
        self.feats, self.labels, self.p, self.k = feats, labels, p, k
        self.by_id = [torch.nonzero(labels == i).squeeze(1) for i in range(N_IDS)]

    def sample(self):
        ids = torch.randperm(N_IDS)[: self.p]
        idx = torch.cat([self.by_id[i][torch.randperm(len(self.by_id[i]))[: self.k]] for i in ids.tolist()])
        return self.feats[idx], self.labels[idx]


def make_data(n_per_id=20):
    protos = torch.randn(N_IDS, FEAT)
    labels = torch.arange(N_IDS).repeat_interleave(n_per_id)
    feats = protos[labels] + 1.6 * torch.randn(len(labels), FEAT)
    return feats, labels


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(FEAT, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Linear(256, EMB))

    def forward(self, x):
        return self.net(x)


def pairwise_dist(e):
    diff = e.unsqueeze(1) - e.unsqueeze(0)
    return diff.pow(2).sum(-1).sqrt()


def batch_hard_triplet(emb, labels, margin=0.3):
    d = pairwise_dist(emb)
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    eye = torch.eye(len(labels), dtype=torch.bool)
    hardest_pos = d.masked_fill(~same | eye, 0.0).max(1).values
    hardest_neg = d.masked_fill(same, float("inf")).min(1).values
    return F.relu(hardest_pos - hardest_neg + margin).mean()


@torch.no_grad()
def recall_at_1(model, feats, labels):
    model.eval()
    e = model(feats)
    d = torch.cdist(e, e)
    d.fill_diagonal_(float("inf"))
    nn_idx = d.argmin(1)
    model.train()
    return (labels[nn_idx] == labels).float().mean().item()


def main():
    print(f"torch {torch.__version__}")
    feats, labels = make_data()
    sampler = IdentitySampler(feats, labels)
    model = Embedder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    print(f"initial recall@1 {recall_at_1(model, feats, labels):.4f}")
    t0 = time.time()
    for step in range(301):
        x, y = sampler.sample()
        loss = batch_hard_triplet(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step < 3 or step % 50 == 0:
            print(f"step {step:3d} triplet loss {loss.item():.4f}")
        if step % 100 == 0 and step > 0:
            print(f"step {step:3d} recall@1 {recall_at_1(model, feats, labels):.4f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
