"""Embed a corpus of documents with a trained encoder, split over several CPU worker processes."""
import time

import numpy as np
import torch
import torch.multiprocessing as mp
import torch.nn as nn

NUM_WORKERS = 2
N_DOCS = 6000
SEQ_LEN = 64
VOCAB = 5000
EMB_DIM = 256


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, EMB_DIM)
        layer = nn.TransformerEncoderLayer(EMB_DIM, nhead=4, dim_feedforward=512, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, num_layers=2)
        self.proj = nn.Linear(EMB_DIM, EMB_DIM)

    def forward(self, ids):
        h = self.enc(self.emb(ids))
        return nn.functional.normalize(self.proj(h.mean(dim=1)), dim=-1)


def embed_shard(rank, state_dict, token_ids, out_queue):
    torch.set_num_threads(1)
    model = Encoder()
    model.load_state_dict(state_dict)
    model.eval()
    chunks = []
    t0 = time.time()
    with torch.no_grad():
        for i in range(0, len(token_ids), 100):
            chunks.append(model(token_ids[i:i + 100]))
    emb = torch.cat(chunks).numpy()
    print(f"[worker {rank}] embedded {len(emb)} docs in {time.time() - t0:.1f}s", flush=True)
    out_queue.put((rank, emb))
    print(f"[worker {rank}] finished", flush=True)


def main():
    torch.manual_seed(0)
    model = Encoder()
    torch.save(model.state_dict(), "encoder.pt")
    state_dict = torch.load("encoder.pt")

    corpus = torch.randint(0, VOCAB, (N_DOCS, SEQ_LEN))
    shards = torch.chunk(corpus, NUM_WORKERS)
    print(f"embedding {N_DOCS} docs with {NUM_WORKERS} workers", flush=True)

    ctx = mp.get_context("spawn")
    out_queue = ctx.Queue()
    procs = []
    for rank in range(NUM_WORKERS):
        p = ctx.Process(target=embed_shard, args=(rank, state_dict, shards[rank], out_queue))
        p.start()
        procs.append(p)

    for p in procs:
        p.join()
    print("all workers joined", flush=True)

    results = dict(out_queue.get() for _ in range(NUM_WORKERS))
    embeddings = np.concatenate([results[r] for r in range(NUM_WORKERS)])
    np.save("doc_embeddings.npy", embeddings)
    print(f"saved embeddings {embeddings.shape}", flush=True)


if __name__ == "__main__":
    main()
