"""Streaming text classifier: reads pre-tokenised jsonl shards with an IterableDataset."""
import glob
import json
import os
import random
import tempfile
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, IterableDataset

SHARD_DIR = os.path.join(tempfile.gettempdir(), "intent_shards")
NUM_SHARDS = 8
EXAMPLES_PER_SHARD = 1000
VOCAB = 2000
SEQ_LEN = 32
BATCH_SIZE = 64
NUM_WORKERS = 4
EPOCHS = 2


def write_shards():
    os.makedirs(SHARD_DIR, exist_ok=True)
    rng = random.Random(0)
    uid = 0
    for s in range(NUM_SHARDS):
        with open(os.path.join(SHARD_DIR, f"train-{s:03d}.jsonl"), "w") as f:
            for _ in range(EXAMPLES_PER_SHARD):
                label = rng.randint(0, 1)
                lo, hi = (0, VOCAB // 2) if label == 0 else (VOCAB // 2, VOCAB)
                ids = [rng.randint(lo, hi - 1) if rng.random() < 0.3 else rng.randint(0, VOCAB - 1)
                       for _ in range(SEQ_LEN)]
                f.write(json.dumps({"uid": uid, "input_ids": ids, "label": label}) + "\n")
                uid += 1


class JsonlStream(IterableDataset):
    def __init__(self, pattern, shuffle_shards=True):
        super().__init__()
        self.files = sorted(glob.glob(pattern))
        self.shuffle_shards = shuffle_shards

    def __iter__(self):
        files = list(self.files)
        if self.shuffle_shards:
            random.shuffle(files)
        for path in files:
            with open(path) as f:
                for line in f:
                    ex = json.loads(line)
                    yield (torch.tensor(ex["input_ids"]), torch.tensor(ex["label"]),
                           torch.tensor(ex["uid"]))


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab, dim=64):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.head = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 2))

    def forward(self, ids):
        return self.head(self.emb(ids))


def main():
    torch.manual_seed(0)
    write_shards()
    ds = JsonlStream(os.path.join(SHARD_DIR, "train-*.jsonl"))
    n_expected = NUM_SHARDS * EXAMPLES_PER_SHARD
    print(f"found {len(ds.files)} shards, {n_expected} examples, "
          f"expected ~{n_expected // BATCH_SIZE} steps/epoch")
    loader = DataLoader(ds, batch_size=BATCH_SIZE, num_workers=NUM_WORKERS)

    model = BagOfEmbeddings(VOCAB)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(EPOCHS):
        t0 = time.time()
        steps, seen, correct = 0, 0, 0
        uids = []
        for ids, labels, uid in loader:
            logits = model(ids)
            loss = loss_fn(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            steps += 1
            seen += labels.numel()
            correct += (logits.argmax(-1) == labels).sum().item()
            uids.append(uid)
            if steps % 100 == 0:
                print(f"epoch {epoch} step {steps} loss {loss.item():.4f}")
        uids = torch.cat(uids)
        print(f"epoch {epoch} done: steps={steps} examples_seen={seen} "
              f"unique_examples={uids.unique().numel()} train_acc={correct / seen:.3f} "
              f"time={time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
