"""Matrix-factorisation recommender for the article feed (implicit feedback, BCE with sampled negatives)."""
import time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS = 4000
N_ITEMS = 3000
DIM = 64
BATCH_SIZE = 1024
EPOCHS = 3
NEG_PER_POS = 4
LR = 5e-3
USE_BF16 = True   # bf16 autocast, the box has AMX


def make_interactions(seed=0):
    rng = np.random.default_rng(seed)
    u_f = rng.normal(size=(N_USERS, 8))
    i_f = rng.normal(size=(N_ITEMS, 8))
    # articles published in the last day have no clicks yet
    fresh = rng.choice(N_ITEMS, size=150, replace=False)
    rows = []
    for u in range(N_USERS):
        aff = i_f @ u_f[u]
        aff[fresh] = -np.inf
        top = np.argpartition(-aff, 40)[:40]
        clicked = rng.choice(top, size=12, replace=False)
        rows.extend((u, i) for i in clicked)
    inter = np.array(rows, dtype=np.int64)
    rng.shuffle(inter)
    return inter, fresh


class MF(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        self.item_bias = nn.Embedding(n_items, 1)
        nn.init.normal_(self.user.weight, std=0.05)
        nn.init.normal_(self.item.weight, std=0.05)
        nn.init.zeros_(self.item_bias.weight)
        self.register_buffer("prior", torch.zeros(n_items))
        self.register_buffer("cold", torch.zeros(0, dtype=torch.long))

    def forward(self, u, i):
        return (self.user(u) * self.item(i)).sum(-1) + self.item_bias(i).squeeze(-1)

    def score_all(self, u):
        scores = F.linear(self.user(u), self.item.weight, self.item_bias.weight.squeeze(-1))
        # items without interactions are ranked by their popularity prior
        scores[:, self.cold] = self.prior[self.cold]
        return scores


def recall_at_k(model, val_pairs, seen, k=20):
    users = np.unique(val_pairs[:, 0])[:500]
    truth = {}
    for u, i in val_pairs:
        truth.setdefault(u, set()).add(i)
    hits, total = 0, 0
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=USE_BF16):
        for start in range(0, len(users), 256):
            ub = users[start:start + 256]
            scores = model.score_all(torch.from_numpy(ub)).float()
            for row, u in enumerate(ub):
                scores[row, list(seen.get(u, ()))] = -1e9
            topk = scores.topk(k, dim=1).indices.numpy()
            for row, u in enumerate(ub):
                hits += len(truth[u] & set(topk[row].tolist()))
                total += min(k, len(truth[u]))
    return hits / total


def main():
    torch.manual_seed(0)
    inter, fresh = make_interactions()
    n_val = len(inter) // 10
    train, val = inter[n_val:], inter[:n_val]
    seen = {}
    for u, i in train:
        seen.setdefault(u, set()).add(i)
    print(f"users {N_USERS} items {N_ITEMS} train clicks {len(train)} val clicks {len(val)}")

    model = MF(N_USERS, N_ITEMS, DIM)
    clicks = np.bincount(train[:, 1], minlength=N_ITEMS)
    model.cold = torch.from_numpy(np.where(clicks == 0)[0])
    model.prior = torch.from_numpy(np.log1p(clicks).astype(np.float32) / 10)
    print(f"items without clicks: {len(model.cold)}")
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    train_t = torch.from_numpy(train)

    for epoch in range(EPOCHS):
        model.train()
        t0, total, steps = time.time(), 0.0, 0
        perm = torch.randperm(len(train_t))
        for start in range(0, len(perm), BATCH_SIZE):
            pos = train_t[perm[start:start + BATCH_SIZE]]
            u = pos[:, 0].repeat_interleave(1 + NEG_PER_POS)
            items = torch.cat([pos[:, 1:2], torch.randint(0, N_ITEMS, (len(pos), NEG_PER_POS))], 1).reshape(-1)
            target = torch.cat([torch.ones(len(pos), 1), torch.zeros(len(pos), NEG_PER_POS)], 1).reshape(-1)
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=USE_BF16):
                logits = model(u, items)
            loss = F.binary_cross_entropy_with_logits(logits.float(), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            steps += 1
            if steps % 10 == 0:
                print(f"epoch {epoch} step {steps} loss {loss.item():.4f}")
        model.eval()
        rec = recall_at_k(model, val, seen)
        print(f"epoch {epoch} train_loss {total / steps:.4f} recall@20 {rec:.3f} ({time.time() - t0:.1f}s)")
    torch.save(model.state_dict(), "mf_feed.pt")


if __name__ == "__main__":
    main()
