"""Pre-tokenize a text corpus in parallel worker processes, then train a small LSTM LM on it.
Usage: python train.py [--limit N]"""
import argparse
import multiprocessing as mp
import os
import random
import time

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

parser = argparse.ArgumentParser()
parser.add_argument("--limit", type=int, default=None, help="only use the first N documents (debug)")
parser.add_argument("--workers", type=int, default=2)
args = parser.parse_args()
torch.set_num_threads(1)

WORDS = [f"w{i}" for i in range(500)]


def make_corpus(n_docs, seed=0):
    rng = random.Random(seed)
    return [" ".join(rng.choices(WORDS, k=rng.randint(50, 200))) for _ in range(n_docs)]


def build_tokenizer(corpus):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.train_from_iterator(corpus[:2000], trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[EOS]"]))
    return tok


def tokenize_shard(worker_id, docs, tok_json, out_q):
    tok = Tokenizer.from_str(tok_json)
    eos = tok.token_to_id("[EOS]")
    ids = []
    for enc in tok.encode_batch(docs):
        ids.extend(enc.ids)
        ids.append(eos)
    out_q.put((worker_id, np.asarray(ids, dtype=np.int32)))
    print(f"[worker {worker_id}] pid={os.getpid()} tokenized {len(docs)} docs -> {len(ids)} tokens", flush=True)


def parallel_tokenize(corpus, tokenizer, n_workers):
    q = mp.Queue()
    shards = [corpus[i::n_workers] for i in range(n_workers)]
    procs = [mp.Process(target=tokenize_shard, args=(i, s, tokenizer.to_str(), q)) for i, s in enumerate(shards)]
    for p in procs:
        p.start()
    print(f"started {n_workers} tokenizer workers, waiting for them to finish...", flush=True)
    for p in procs:
        p.join()
    results = dict(q.get() for _ in procs)
    return np.concatenate([results[i] for i in range(n_workers)])


class LSTMLM(torch.nn.Module):
    def __init__(self, vocab, dim=128):
        super().__init__()
        self.emb = torch.nn.Embedding(vocab, dim)
        self.rnn = torch.nn.LSTM(dim, dim, batch_first=True)
        self.out = torch.nn.Linear(dim, vocab)

    def forward(self, x):
        return self.out(self.rnn(self.emb(x))[0])


if __name__ == "__main__":
    corpus = make_corpus(20000)
    if args.limit:
        corpus = corpus[: args.limit]
    tokenizer = build_tokenizer(corpus)
    print(f"corpus: {len(corpus)} docs, vocab {tokenizer.get_vocab_size()}", flush=True)

    t0 = time.time()
    stream = parallel_tokenize(corpus, tokenizer, args.workers)
    print(f"tokenized {len(stream)} tokens in {time.time()-t0:.1f}s", flush=True)

    SEQ = 64
    n = (len(stream) - 1) // SEQ
    x = torch.from_numpy(stream[: n * SEQ].astype(np.int64)).view(n, SEQ)
    y = torch.from_numpy(stream[1: n * SEQ + 1].astype(np.int64)).view(n, SEQ)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=64, shuffle=True)
    model = LSTMLM(tokenizer.get_vocab_size())
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step, (xb, yb) in enumerate(loader):
        loss = torch.nn.functional.cross_entropy(model(xb).flatten(0, 1), yb.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            print(f"step {step} loss {loss.item():.3f}", flush=True)
        if step == 100:
            break
    print("done")
