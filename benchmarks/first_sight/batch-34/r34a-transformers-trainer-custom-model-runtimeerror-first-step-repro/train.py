"""Train a custom GRU review classifier with the Hugging Face Trainer (CPU)."""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import Trainer, TrainingArguments

POS = "great love excellent perfect happy recommend amazing works".split()
NEG = "broken awful refund terrible waste poor disappointed returned".split()
FILL = "the a it this product was i my and very to for after day".split()
VOCAB = ["<pad>", "<unk>"] + POS + NEG + FILL
STOI = {w: i for i, w in enumerate(VOCAB)}


def make_reviews(n, rng):
    rows = []
    for _ in range(n):
        y = rng.randrange(2)
        words = rng.sample(POS if y else NEG, 2) + rng.sample(FILL, rng.randint(4, 10))
        if rng.random() < 0.3:
            words += rng.sample(NEG if y else POS, 1)
        rng.shuffle(words)
        rows.append({"input_ids": [STOI[w] for w in words], "labels": y})
    return rows


def collate(batch):
    longest = max(len(b["input_ids"]) for b in batch)
    ids = torch.zeros(len(batch), longest, dtype=torch.long)
    mask = torch.zeros(len(batch), longest, dtype=torch.long)
    for i, b in enumerate(batch):
        ids[i, :len(b["input_ids"])] = torch.tensor(b["input_ids"])
        mask[i, :len(b["input_ids"])] = 1
    return {"input_ids": ids, "attention_mask": mask,
            "labels": torch.tensor([b["labels"] for b in batch])}


class GRUClassifier(nn.Module):
    def __init__(self, vocab, dim=64, n_labels=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.gru = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.head = nn.Linear(2 * dim, n_labels)

    def forward(self, input_ids, attention_mask, labels=None):
        h, _ = self.gru(self.emb(input_ids))
        m = attention_mask.unsqueeze(-1).float()
        logits = self.head((h * m).sum(1) / m.sum(1))
        if labels is not None:
            return logits, F.cross_entropy(logits, labels)
        return (logits,)


def compute_metrics(p):
    logits = p.predictions[0] if isinstance(p.predictions, tuple) else p.predictions
    return {"accuracy": float((np.argmax(logits, -1) == p.label_ids).mean())}


def main():
    rng = random.Random(0)
    torch.manual_seed(0)
    train_rows, val_rows = make_reviews(4000, rng), make_reviews(800, rng)
    model = GRUClassifier(len(VOCAB))
    args = TrainingArguments(output_dir="runs/gru-reviews", num_train_epochs=2,
                             per_device_train_batch_size=32, per_device_eval_batch_size=128,
                             learning_rate=2e-3, eval_strategy="epoch", save_strategy="no",
                             logging_steps=25, report_to="none", use_cpu=True,
                             remove_unused_columns=False)
    trainer = Trainer(model=model, args=args, train_dataset=train_rows, eval_dataset=val_rows,
                      data_collator=collate, compute_metrics=compute_metrics)
    print(f"train={len(train_rows)} val={len(val_rows)} vocab={len(VOCAB)} "
          f"params={sum(p.numel() for p in model.parameters())}")
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
