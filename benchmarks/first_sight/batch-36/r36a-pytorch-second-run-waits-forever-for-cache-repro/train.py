"""Ticket-topic classifier (bag-of-words MLP) trained from a shared token cache.

Several sweep jobs start at the same time on the same node and share
/tmp/ticket_cache, so the first job builds the token shards under a lock file and
the others wait for it, then everybody reads the finished shards.
"""
import os
import sys
import time
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

CACHE_DIR = os.environ.get("TICKET_CACHE", "/tmp/ticket_cache")
LOCK_PATH = os.path.join(CACHE_DIR, "build.lock")
DONE_MARKER = os.path.join(CACHE_DIR, "DONE")
N_TICKETS = 36_000
N_SHARDS = 12
VOCAB = 2048
N_TOPICS = 8


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def acquire_lock(path, poll_s=2.0):
    waited = 0.0
    while True:
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            os.write(fd, f"{os.getpid()}\n".encode())
            os.close(fd)
            return
        except FileExistsError:
            if waited % 30 == 0:
                log(f"cache is being built by another job ({path} exists), waiting...")
            time.sleep(poll_s)
            waited += poll_s


def release_lock(path):
    os.remove(path)


def fake_ticket(rng):
    topic = rng.randrange(N_TOPICS)
    words = [f"w{rng.randrange(VOCAB)}" for _ in range(rng.randint(20, 60))]
    words += [f"w{topic * 37 + rng.randrange(12)}" for _ in range(rng.randint(1, 4))]
    rng.shuffle(words)
    return " ".join(words), topic


def tokenize(text):
    # stand-in for the real normaliser + tokenizer, which is slow
    ids = []
    for w in text.split():
        h = 0
        for ch in w:
            h = (h * 131 + ord(ch)) % 1_000_003
        ids.append(int(w[1:]) if w[1:].isdigit() else h % VOCAB)
    return ids


def build_cache():
    rng = random.Random(0)
    per_shard = N_TICKETS // N_SHARDS
    for s in range(N_SHARDS):
        bows = np.zeros((per_shard, VOCAB), dtype=np.float32)
        labels = np.zeros(per_shard, dtype=np.int64)
        for i in range(per_shard):
            text, topic = fake_ticket(rng)
            for _ in range(3):             # normaliser variants
                ids = tokenize(text)
            np.add.at(bows[i], ids, 1.0)
            labels[i] = topic
        np.savez_compressed(os.path.join(CACHE_DIR, f"shard_{s:02d}.npz"), bow=bows, y=labels)
        log(f"  wrote shard {s + 1}/{N_SHARDS}")


def ensure_cache():
    os.makedirs(CACHE_DIR, exist_ok=True)
    if os.path.exists(DONE_MARKER):
        return
    acquire_lock(LOCK_PATH)
    try:
        if not os.path.exists(DONE_MARKER):
            log("building token cache")
            build_cache()
            open(DONE_MARKER, "w").close()
    finally:
        release_lock(LOCK_PATH)


def load_cache():
    xs, ys = [], []
    for s in range(N_SHARDS):
        d = np.load(os.path.join(CACHE_DIR, f"shard_{s:02d}.npz"))
        xs.append(d["bow"]); ys.append(d["y"])
    return torch.from_numpy(np.concatenate(xs)), torch.from_numpy(np.concatenate(ys))


def main():
    torch.manual_seed(0)
    log(f"pid {os.getpid()} starting, cache dir {CACHE_DIR}")
    ensure_cache()
    X, y = load_cache()
    X = torch.log1p(X)
    n_tr = int(0.9 * len(y))
    model = nn.Sequential(nn.Linear(VOCAB, 256), nn.ReLU(), nn.Linear(256, N_TOPICS))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        perm = torch.randperm(n_tr)
        for i in range(0, n_tr, 256):
            b = perm[i:i + 256]
            loss = F.cross_entropy(model(X[b]), y[b])
            opt.zero_grad(); loss.backward(); opt.step()
        with torch.no_grad():
            acc = (model(X[n_tr:]).argmax(1) == y[n_tr:]).float().mean().item()
        log(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc:.4f}")


if __name__ == "__main__":
    main()
