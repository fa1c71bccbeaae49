"""Dual-encoder retrieval training with mined hard negatives (CPU).

Queries and documents are short token sequences; a shared small transformer encodes both.
Hard negatives for each query come from the current document index.
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, DOC_LEN, Q_LEN, DIM = 3000, 24, 8, 64
N_DOCS = 3000
BATCH = 32
EPOCHS = 2
STEPS_PER_EPOCH = 60
INDEX_REFRESH_EPOCHS = 1
HARD_K = 3
LOG_EVERY = 10


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        layer = nn.TransformerEncoderLayer(DIM, 4, 4 * DIM, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)

    def forward(self, tokens):
        return F.normalize(self.enc(self.emb(tokens)).mean(1), dim=-1)


def make_corpus(g):
    docs = torch.randint(0, VOCAB, (N_DOCS, DOC_LEN), generator=g)
    # a query is a noisy subset of its document's tokens
    pick = torch.randint(0, DOC_LEN, (N_DOCS, Q_LEN), generator=g)
    queries = torch.gather(docs, 1, pick)
    noise = torch.rand(N_DOCS, Q_LEN, generator=g) < 0.25
    queries[noise] = torch.randint(0, VOCAB, (int(noise.sum()),), generator=g)
    return docs, queries


@torch.no_grad()
def encode_corpus(model, docs, bs=512):
    model.eval()
    out = torch.cat([model(docs[i:i + bs]) for i in range(0, len(docs), bs)])
    model.train()
    return out


@torch.no_grad()
def recall_at_10(model, docs, queries, n=1000):
    d = encode_corpus(model, docs)
    q = encode_corpus(model, queries[:n])
    top = (q @ d.T).topk(10, dim=1).indices
    return (top == torch.arange(n)[:, None]).any(1).float().mean().item()


def main():
    torch.set_num_threads(1)  # the box is shared; more intra-op threads only contend
    torch.manual_seed(0)
    docs, queries = make_corpus(torch.Generator().manual_seed(0))
    model = Encoder()
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    print(f"docs={N_DOCS} params={sum(p.numel() for p in model.parameters()) / 1e6:.2f}M "
          f"threads={torch.get_num_threads()}", flush=True)

    index = None
    step = 0
    t_start = time.time()
    for epoch in range(EPOCHS):
        t_win = time.time()
        for _ in range(STEPS_PER_EPOCH):
            if index is None or step % INDEX_REFRESH_EPOCHS == 0:
                index = encode_corpus(model, docs)
            ids = torch.randint(0, N_DOCS, (BATCH,))
            sims = index[ids] @ index.T
            sims[torch.arange(BATCH), ids] = -1e4
            hard = sims.topk(HARD_K, dim=1).indices.flatten()

            q = model(queries[ids])
            d = model(torch.cat([docs[ids], docs[hard]]))
            loss = F.cross_entropy(q @ d.T / 0.05, torch.arange(BATCH))
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step % LOG_EVERY == 0:
                rate = LOG_EVERY / (time.time() - t_win)
                print(f"epoch {epoch} step {step} loss {loss.item():.4f} {rate:.2f} it/s", flush=True)
                t_win = time.time()
        print(f"epoch {epoch} recall@10 {recall_at_10(model, docs, queries):.3f} "
              f"elapsed {time.time() - t_start:.0f}s", flush=True)


if __name__ == "__main__":
    main()
