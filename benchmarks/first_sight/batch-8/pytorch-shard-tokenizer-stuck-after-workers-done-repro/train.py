import multiprocessing as mp
import time

import numpy as np
import torch
import torch.nn as nn

VOCAB = 5000
SEQ_LEN = 64
N_SHARDS = 4
DOCS_PER_SHARD = 2000


def tokenize_shard(shard_id, out_q):
    rng = np.random.default_rng(shard_id)
    docs = rng.integers(0, VOCAB, size=(DOCS_PER_SHARD, SEQ_LEN + 1), dtype=np.int64)
    out_q.put((shard_id, docs))
    print(f"[worker {shard_id}] tokenized {len(docs)} docs", flush=True)


def build_dataset():
    q = mp.Queue()
    procs = [mp.Process(target=tokenize_shard, args=(i, q)) for i in range(N_SHARDS)]
    for p in procs:
        p.start()
    print(f"started {N_SHARDS} tokenizer workers, waiting for them to finish...", flush=True)
    for p in procs:
        p.join()
    print("all workers joined", flush=True)
    shards = dict(q.get() for _ in range(N_SHARDS))
    data = np.concatenate([shards[i] for i in range(N_SHARDS)])
    return torch.from_numpy(data)


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 128)
        self.rnn = nn.GRU(128, 128, batch_first=True)
        self.out = nn.Linear(128, VOCAB)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


def main():
    t0 = time.time()
    data = build_dataset()
    print(f"dataset: {tuple(data.shape)} in {time.time() - t0:.1f}s", flush=True)
    model = TinyLM()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step in range(20):
        batch = data[torch.randint(0, len(data), (32,))]
        logits = model(batch[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 5 == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)


if __name__ == "__main__":
    main()
