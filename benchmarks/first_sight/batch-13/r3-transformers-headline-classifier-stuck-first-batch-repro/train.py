"""News headline topic classifier (4 topics).

Word-level tokenizer trained on the headlines, EmbeddingBag-style model, batches
are tokenized on the fly in the DataLoader workers so the main process stays free.
"""
import os
import random
import time

os.environ.setdefault("TOKENIZERS_PARALLELISM", "true")   # fast batch tokenization

import torch
import torch.nn as nn
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast

random.seed(0)
torch.manual_seed(0)

TOPICS = ["business", "sports", "tech", "politics"]
KEYWORDS = {
    "business": ["shares", "earnings", "merger", "profit", "investors", "bank", "stocks"],
    "sports": ["match", "league", "coach", "goal", "season", "transfer", "cup"],
    "tech": ["startup", "chip", "software", "ai", "smartphone", "cloud", "app"],
    "politics": ["election", "minister", "parliament", "vote", "senate", "policy", "campaign"],
}
FILLER = ("the a new after over says report week year first amid plans could "
          "may record biggest local global update talks fans market city").split()

BATCH_SIZE = 64
NUM_WORKERS = 2
EPOCHS = 2
MAX_LEN = 48


def make_headlines(n):
    rows = []
    for _ in range(n):
        y = random.randrange(len(TOPICS))
        words = random.choices(FILLER, k=random.randint(6, 30))
        for kw in random.sample(KEYWORDS[TOPICS[y]], 2):
            words.insert(random.randrange(len(words) + 1), kw)
        rows.append((" ".join(words), y))
    return rows


def build_tokenizer(texts):
    wl = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    wl.pre_tokenizer = pre_tokenizers.Whitespace()
    wl.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]"]))
    return PreTrainedTokenizerFast(tokenizer_object=wl, pad_token="[PAD]", unk_token="[UNK]")


class Headlines(torch.utils.data.Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


class Collator:
    def __init__(self, tokenizer):
        self.tok = tokenizer

    def __call__(self, batch):
        texts, labels = zip(*batch)
        enc = self.tok(list(texts), padding=True, truncation=True, max_length=MAX_LEN,
                       return_tensors="pt")
        enc["labels"] = torch.tensor(labels)
        return enc


class BagClassifier(nn.Module):
    def __init__(self, vocab, dim=64, n_cls=4, pad_id=0):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, n_cls))

    def forward(self, input_ids, attention_mask):
        m = attention_mask.unsqueeze(-1).float()
        h = (self.emb(input_ids) * m).sum(1) / m.sum(1).clamp(min=1)
        return self.mlp(h)


def main():
    train_rows, val_rows = make_headlines(40000), make_headlines(4000)
    tokenizer = build_tokenizer([t for t, _ in train_rows])
    print(f"vocab size: {tokenizer.vocab_size}")

    # quick look at the length distribution before picking MAX_LEN
    lens = [len(ids) for ids in tokenizer([t for t, _ in train_rows])["input_ids"]]
    print(f"headline tokens: mean {sum(lens) / len(lens):.1f}, max {max(lens)}")

    collate = Collator(tokenizer)
    train_dl = torch.utils.data.DataLoader(Headlines(train_rows), batch_size=BATCH_SIZE,
                                           shuffle=True, num_workers=NUM_WORKERS,
                                           collate_fn=collate)
    val_dl = torch.utils.data.DataLoader(Headlines(val_rows), batch_size=256,
                                         num_workers=NUM_WORKERS, collate_fn=collate)

    model = BagClassifier(tokenizer.vocab_size, pad_id=tokenizer.pad_token_id)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        print(f"epoch {epoch}: starting ({len(train_dl)} batches)", flush=True)
        for step, batch in enumerate(train_dl):
            logits = model(batch["input_ids"], batch["attention_mask"])
            loss = loss_fn(logits, batch["labels"])
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 100 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f} "
                      f"({time.time() - t0:.1f}s)", flush=True)

        model.eval()
        correct = total = 0
        with torch.no_grad():
            for batch in val_dl:
                pred = model(batch["input_ids"], batch["attention_mask"]).argmax(-1)
                correct += (pred == batch["labels"]).sum().item()
                total += len(pred)
        print(f"epoch {epoch}: val acc {correct / total:.4f}", flush=True)


if __name__ == "__main__":
    main()
