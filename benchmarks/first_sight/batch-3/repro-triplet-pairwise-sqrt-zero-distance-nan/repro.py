import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)

NUM_IDENTITIES = 60
SAMPLES_PER_ID = 40
INPUT_DIM = 48
EMBED_DIM = 32
P, K = 8, 4              # identities per batch, samples per identity
MARGIN = 0.3
LR = 1e-3
STEPS = 400
LOG_EVERY = 20


def make_data():
    protos = torch.randn(NUM_IDENTITIES, INPUT_DIM)
    xs, ys = [], []
    for i in range(NUM_IDENTITIES):
        xs.append(protos[i] + 1.3 * torch.randn(SAMPLES_PER_ID, INPUT_DIM))
        ys.append(torch.full((SAMPLES_PER_ID,), i))
    return torch.cat(xs), torch.cat(ys)


class PKSampler:
    def __init__(self, labels, p, k):
        self.p, self.k = p, k
        self.index = {}
        for idx, lab in enumerate(labels.tolist()):
            self.index.setdefault(lab, []).append(idx)

    def sample(self):
        ids = random.sample(sorted(self.index), self.p)
        batch = []
        for i in ids:
            batch += random.sample(self.index[i], self.k)
        return torch.tensor(batch)


class EmbeddingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(INPUT_DIM, 256), nn.ReLU(),
            nn.Linear(256, 256), nn.ReLU(),
            nn.Linear(256, EMBED_DIM),
        )

    def forward(self, x):
        return F.normalize(self.net(x), dim=1)


def pairwise_distances(emb):
    dot = emb @ emb.t()
    sq_norm = torch.diagonal(dot)
    d2 = sq_norm.unsqueeze(0) - 2.0 * dot + sq_norm.unsqueeze(1)
    d2 = torch.clamp(d2, min=0.0)
    return torch.sqrt(d2)


def batch_hard_triplet_loss(emb, labels, margin):
    dist = pairwise_distances(emb)
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    eye = torch.eye(len(labels), dtype=torch.bool)
    pos_mask = (same & ~eye).float()
    neg_mask = (~same).float()
    hardest_pos = (dist * pos_mask).max(dim=1).values
    max_dist = dist.max(dim=1, keepdim=True).values
    hardest_neg = (dist + max_dist * (1.0 - neg_mask)).min(dim=1).values
    losses = F.relu(hardest_pos - hardest_neg + margin)
    return losses.mean(), (losses > 0).float().mean()


@torch.no_grad()
def recall_at_1(model, x, y):
    model.eval()
    emb = model(x)
    d = torch.cdist(emb, emb)
    d.fill_diagonal_(float("inf"))
    nn_idx = d.argmin(dim=1)
    model.train()
    return (y[nn_idx] == y).float().mean().item()


def main():
    x, y = make_data()
    n_test_per_id = 10
    pos_in_id = torch.arange(len(y)) % SAMPLES_PER_ID
    train_mask = pos_in_id < SAMPLES_PER_ID - n_test_per_id
    x_tr, y_tr = x[train_mask], y[train_mask]
    x_te, y_te = x[~train_mask], y[~train_mask]
    sampler = PKSampler(y_tr, P, K)
    model = EmbeddingNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=LR)
    print(f"ids={NUM_IDENTITIES} train={len(y_tr)} test={len(y_te)} batch=P{P}xK{K} margin={MARGIN} lr={LR}")
    print(f"step 0 | test recall@1 {recall_at_1(model, x_te, y_te):.4f}")
    t0 = time.time()
    for step in range(1, STEPS + 1):
        idx = sampler.sample()
        emb = model(x_tr[idx])
        loss, frac_active = batch_hard_triplet_loss(emb, y_tr[idx], MARGIN)
        optimizer.zero_grad()
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=10.0)
        optimizer.step()
        if step == 1 or step % LOG_EVERY == 0:
            print(f"step {step} | loss {loss.item():.4f} | active_triplets {frac_active.item():.3f} | "
                  f"grad_norm {grad_norm.item():.4f} | {time.time() - t0:.1f}s")
        if step % 200 == 0:
            print(f"step {step} | test recall@1 {recall_at_1(model, x_te, y_te):.4f}")


if __name__ == "__main__":
    main()
