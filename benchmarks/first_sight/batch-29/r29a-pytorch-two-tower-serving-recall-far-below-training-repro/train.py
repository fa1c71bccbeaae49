"""Two-tower retrieval: match support questions (query features) to help-center articles (doc features)."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_DOCS, N_TRAIN_Q, N_VAL_Q, D_Q, D_D, D_EMB = 5000, 40000, 2000, 96, 128, 64
BATCH, EPOCHS, LR, TAU = 256, 5, 2e-3, 0.05

g = torch.Generator().manual_seed(0)
doc_latent = torch.randn(N_DOCS, 48, generator=g)
Wq = torch.randn(48, D_Q, generator=g) / 48 ** 0.5
Wd = torch.randn(48, D_D, generator=g) / 48 ** 0.5
doc_feats = torch.tanh(doc_latent @ Wd) + 0.05 * torch.randn(N_DOCS, D_D, generator=g)


def make_queries(n):
    target = torch.randint(0, N_DOCS, (n,), generator=g)
    z = doc_latent[target] + 1.4 * torch.randn(n, 48, generator=g)
    return torch.tanh(z @ Wq) + 0.1 * torch.randn(n, D_Q, generator=g), target


q_tr, t_tr = make_queries(N_TRAIN_Q)
q_va, t_va = make_queries(N_VAL_Q)


def tower(d_in):
    return nn.Sequential(nn.Linear(d_in, 256), nn.GELU(), nn.Linear(256, 256), nn.GELU(), nn.Linear(256, D_EMB))


q_enc, d_enc = tower(D_Q), tower(D_D)
params = list(q_enc.parameters()) + list(d_enc.parameters())
opt = torch.optim.AdamW(params, lr=LR, weight_decay=0.01)


def info_nce(qe, de):
    logits = F.normalize(qe, dim=-1) @ F.normalize(de, dim=-1).T / TAU
    labels = torch.arange(len(qe))
    return F.cross_entropy(logits, labels), (logits.argmax(1) == labels).float().mean()


@torch.no_grad()
def build_index():
    return F.normalize(d_enc(doc_feats), dim=0)


@torch.no_grad()
def search(queries, index, k=10):
    qe = F.normalize(q_enc(queries), dim=0)
    return (qe @ index.T).topk(k, dim=1).indices


@torch.no_grad()
def recall(queries, targets):
    top = search(queries, build_index())
    hit1 = (top[:, 0] == targets).float().mean().item()
    hit10 = (top == targets[:, None]).any(1).float().mean().item()
    return hit1, hit10


t0 = time.time()
for epoch in range(EPOCHS):
    perm = torch.randperm(N_TRAIN_Q)
    tot_loss = tot_acc = 0.0
    n_steps = N_TRAIN_Q // BATCH
    for s in range(n_steps):
        idx = perm[s * BATCH:(s + 1) * BATCH]
        loss, acc = info_nce(q_enc(q_tr[idx]), d_enc(doc_feats[t_tr[idx]]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot_loss += loss.item()
        tot_acc += acc.item()
    r1, r10 = recall(q_va, t_va)
    print(f"epoch {epoch} loss {tot_loss / n_steps:.4f} in-batch acc {tot_acc / n_steps:.3f} | "
          f"val recall@1 {r1:.3f} recall@10 {r10:.3f} (over {N_DOCS} articles) {time.time() - t0:.0f}s")

# spot-check a few single queries the way the serving endpoint calls search()
hits = sum(int(t_va[i].item() in search(q_va[i:i + 1], build_index())[0].tolist()) for i in range(200))
print(f"single-query spot check: {hits}/200 queries have the right article in the top 10")
torch.save({"q_enc": q_enc.state_dict(), "d_enc": d_enc.state_dict()}, "two_tower.pt")
