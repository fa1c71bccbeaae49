"""Intent classifier: tokenise corpus once up front, then train with a multi-worker DataLoader."""
import os
import random
import time

import psutil
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

VOCAB = 30000
MAX_LEN = 64
N_EXAMPLES = 400_000
NUM_WORKERS = 4
BATCH_SIZE = 256


def fake_tokenise_corpus(n, seed=0):
    """Stand-in for the real tokeniser pass over the jsonl dump (same output structure)."""
    rng = random.Random(seed)
    corpus = []
    for i in range(n):
        length = rng.randint(16, MAX_LEN)
        label = rng.randrange(8)
        ids = [rng.randrange(1000, VOCAB) for _ in range(length)]
        ids[: label + 1] = [label + 300] * (label + 1)
        corpus.append({"id": f"utt-{i:07d}", "input_ids": ids,
                       "attention_mask": [1] * length, "label": label})
    return corpus


class IntentDataset(Dataset):
    def __init__(self, records):
        self.records = records

    def __len__(self):
        return len(self.records)

    def __getitem__(self, idx):
        r = self.records[idx]
        ids = r["input_ids"][:MAX_LEN]
        pad = MAX_LEN - len(ids)
        return (torch.tensor(ids + [0] * pad), torch.tensor(r["attention_mask"] + [0] * pad),
                torch.tensor(r["label"]))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32, padding_idx=0)
        self.out = nn.Linear(32, 8)

    def forward(self, ids, mask):
        h = self.emb(ids) * mask.unsqueeze(-1)
        return self.out(h.sum(1) / mask.sum(1, keepdim=True))


def tree_memory_gb():
    """Proportional set size of this process + its DataLoader workers, and system used RAM."""
    me = psutil.Process(os.getpid())
    pss = 0
    for p in [me] + me.children(recursive=True):
        try:
            pss += p.memory_full_info().pss
        except psutil.Error:
            pass
    vm = psutil.virtual_memory()
    return pss / 2**30, (vm.total - vm.available) / 2**30


def main():
    torch.manual_seed(0)
    t0 = time.time()
    records = fake_tokenise_corpus(N_EXAMPLES)
    print(f"tokenised {len(records)} examples in {time.time() - t0:.1f}s")
    pss, used = tree_memory_gb()
    print(f"[mem] after tokenisation: process-tree PSS {pss:.2f} GB, system used {used:.2f} GB")

    loader = DataLoader(IntentDataset(records), batch_size=BATCH_SIZE, shuffle=True,
                        num_workers=NUM_WORKERS, persistent_workers=True)
    model = Model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(1):
        for step, (ids, mask, y) in enumerate(loader):
            loss = loss_fn(model(ids, mask), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 200 == 0 or step == len(loader) - 1:
                pss, used = tree_memory_gb()
                print(f"epoch {epoch} step {step:5d}/{len(loader)} loss {loss.item():.4f} "
                      f"[mem] process-tree PSS {pss:.2f} GB, system used {used:.2f} GB")


if __name__ == "__main__":
    main()
