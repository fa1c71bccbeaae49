"""Review-topic classifier (EmbeddingBag + MLP), trained data-parallel on the CPU nodes:

    torchrun --nproc_per_node 2 train.py

The tokenizer and the tokenized corpus are cached under CACHE_DIR so that later runs
skip preprocessing.
"""
import os
import random
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from torch.utils.data import DataLoader, Dataset

CACHE_DIR = os.environ.get("CACHE_DIR", "cache")
TOK_PATH = os.path.join(CACHE_DIR, "tokenizer.json")
DATA_PATH = os.path.join(CACHE_DIR, "reviews_tok.npz")
TOPICS = ["battery", "screen", "delivery", "price", "support", "camera"]
MAX_LEN = 48


def raw_reviews(n=30000, seed=0):
    rnd = random.Random(seed)
    cue = {"battery": "battery charge drains hours", "screen": "screen display bright scratches",
           "delivery": "delivery courier late box", "price": "price expensive cheap value",
           "support": "support agent call rude", "camera": "camera photos blurry zoom"}
    filler = "the phone is really quite not very good bad after two weeks i would say that my it".split()
    texts, labels = [], []
    for _ in range(n):
        y = rnd.randrange(len(TOPICS))
        words = rnd.choices(filler, k=rnd.randint(6, 30)) + rnd.sample(cue[TOPICS[y]].split(), 2)
        rnd.shuffle(words)
        texts.append(" ".join(words))
        labels.append(y)
    return texts, np.array(labels)


def build_cache():
    os.makedirs(CACHE_DIR, exist_ok=True)
    texts, labels = raw_reviews()
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(texts, trainers.WordPieceTrainer(vocab_size=2000, special_tokens=["[PAD]", "[UNK]"]))
    tok.enable_padding(pad_id=0, length=MAX_LEN)
    tok.enable_truncation(MAX_LEN)
    ids = np.array([e.ids for e in tok.encode_batch(texts)], dtype=np.int32)
    tok.save(TOK_PATH)
    np.savez(DATA_PATH, ids=ids, labels=labels)


class TokenizedReviews(Dataset):
    def __init__(self, ids, labels):
        self.ids, self.labels = torch.from_numpy(ids).long(), torch.from_numpy(labels).long()

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.ids[i], self.labels[i]


class BagClassifier(nn.Module):
    def __init__(self, vocab, dim=64, n_classes=len(TOPICS)):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean", padding_idx=0)
        self.mlp = nn.Sequential(nn.Linear(dim, 128), nn.ReLU(), nn.Linear(128, n_classes))

    def forward(self, ids):
        return self.mlp(self.emb(ids))


def main():
    accelerator = Accelerator(cpu=True)
    set_seed(0)
    accelerator.print(f"num_processes={accelerator.num_processes} distributed_type={accelerator.distributed_type}")

    t0 = time.time()
    if accelerator.is_main_process and not os.path.exists(DATA_PATH):
        print("building tokenizer + tokenized cache ...", flush=True)
        build_cache()
        print(f"cache written to {CACHE_DIR} in {time.time() - t0:.1f}s", flush=True)

    data = np.load(DATA_PATH)
    vocab = Tokenizer.from_file(TOK_PATH).get_vocab_size()
    ids, labels = data["ids"], data["labels"]
    n_val = 3000
    train_ds = TokenizedReviews(ids[n_val:], labels[n_val:])
    val_ds = TokenizedReviews(ids[:n_val], labels[:n_val])
    train_loader = DataLoader(train_ds, batch_size=128, shuffle=True)
    val_loader = DataLoader(val_ds, batch_size=512)

    model = BagClassifier(vocab)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model, optimizer, train_loader, val_loader = accelerator.prepare(model, optimizer, train_loader, val_loader)

    for epoch in range(3):
        model.train()
        te = time.time()
        for step, (x, y) in enumerate(train_loader):
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
        model.eval()
        correct = total = 0
        with torch.no_grad():
            for x, y in val_loader:
                preds, gold = accelerator.gather_for_metrics((model(x).argmax(-1), y))
                correct += (preds == gold).sum().item()
                total += gold.numel()
        accelerator.print(f"epoch {epoch} loss {loss.item():.4f} val_acc {correct / total:.4f} ({time.time() - te:.1f}s)")

    accelerator.wait_for_everyone()
    if accelerator.is_main_process:
        torch.save(accelerator.unwrap_model(model).state_dict(), os.path.join(CACHE_DIR, "bag_classifier.pt"))
    accelerator.print("done")


if __name__ == "__main__":
    main()
