"""Pre-tokenise a corpus with a pool of worker processes, then train a small bag-of-words classifier."""
import faulthandler
import multiprocessing as mp
import random
import sys
import time

import torch
import torch.nn as nn
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

# dump stacks and exit if anything stalls for more than 90 s
faulthandler.dump_traceback_later(90, exit=True)

NUM_PROCS = 4
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
         "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo"]


def make_corpus(n, seed=0):
    rng = random.Random(seed)
    texts, labels = [], []
    for _ in range(n):
        label = rng.randrange(2)
        pool = WORDS[:10] if label == 0 else WORDS[8:]
        texts.append(" ".join(rng.choice(pool) + rng.choice(["", "s", "ing", "ed"])
                              for _ in range(rng.randint(20, 60))))
        labels.append(label)
    return texts, labels


def train_tokenizer(texts):
    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.BpeTrainer(vocab_size=500, special_tokens=["[PAD]", "[UNK]"])
    tok.train_from_iterator(texts, trainer)
    return tok


def tokenise_shard(shard_id, tok_json, texts, out_q):
    tok = Tokenizer.from_str(tok_json)
    ids = [enc.ids for enc in tok.encode_batch(texts)]
    out_q.put((shard_id, ids))
    print(f"[worker {shard_id}] tokenised {len(texts)} texts", flush=True)


def parallel_tokenise(tok, texts):
    out_q = mp.Queue()
    shards = [texts[i::NUM_PROCS] for i in range(NUM_PROCS)]
    procs = [mp.Process(target=tokenise_shard, args=(i, tok.to_str(), shards[i], out_q))
             for i in range(NUM_PROCS)]
    for p in procs:
        p.start()
    print("waiting for tokeniser workers...", flush=True)
    for p in procs:
        p.join()
    results = dict(out_q.get() for _ in procs)
    ordered = [None] * len(texts)
    for i in range(NUM_PROCS):
        ordered[i::NUM_PROCS] = results[i]
    return ordered


def main():
    torch.manual_seed(0)
    texts, labels = make_corpus(40_000)
    t0 = time.time()
    tok = train_tokenizer(texts)
    print(f"trained tokenizer: vocab={tok.get_vocab_size()} in {time.time() - t0:.1f}s", flush=True)

    t0 = time.time()
    ids = parallel_tokenise(tok, texts)
    print(f"tokenised {len(ids)} texts in {time.time() - t0:.1f}s", flush=True)

    V = tok.get_vocab_size()
    x = torch.zeros(len(ids), V)
    for i, seq in enumerate(ids):
        x[i].index_add_(0, torch.tensor(seq), torch.ones(len(seq)))
    x = x / x.sum(1, keepdim=True)
    y = torch.tensor(labels)
    model = nn.Linear(V, 2)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(3):
        perm = torch.randperm(len(y))
        for b in range(0, len(y), 512):
            idx = perm[b:b + 512]
            loss = nn.functional.cross_entropy(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = (model(x).argmax(-1) == y).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.4f} acc {acc:.4f}", flush=True)
    faulthandler.cancel_dump_traceback_later()


if __name__ == "__main__":
    sys.exit(main())
