"""Spam / not-spam classifier with accelerate (CPU, bf16 autocast).

Labels come from the annotation export (messages.csv: text,label).
"""
import csv
import os
import random

import numpy as np
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast, get_cosine_schedule_with_warmup

HERE = os.path.dirname(os.path.abspath(__file__))
CSV = os.path.join(HERE, "messages.csv")

# --- fake annotation export so the script is self-contained ---------------
rng = random.Random(3)
SPAM = ["win", "free", "prize", "click", "offer", "cash", "winner", "urgent"]
HAM = ["meeting", "lunch", "tomorrow", "report", "call", "thanks", "project", "family"]
COMMON = ["the", "you", "to", "a", "for", "now", "please", "today", "your", "we", "at", "on", "is"]
with open(CSV, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["text", "label"])
    for _ in range(2000):
        y = rng.randint(0, 1)
        words = [rng.choice(COMMON) for _ in range(rng.randint(5, 20))] + rng.sample(SPAM if y else HAM, 2)
        rng.shuffle(words)
        w.writerow([" ".join(words), y])

# --- load -----------------------------------------------------------------
texts = []
with open(CSV) as f:
    for row in csv.DictReader(f):
        texts.append(row["text"])
labels = np.genfromtxt(CSV, delimiter=",", skip_header=1, usecols=1)
print(f"loaded {len(texts)} messages, positive rate {labels.mean():.2f}")

tk = Tokenizer(models.WordPiece(unk_token="[UNK]"))
tk.normalizer = normalizers.BertNormalizer(lowercase=True)
tk.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
tk.train_from_iterator(texts, trainers.WordPieceTrainer(vocab_size=400, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tk.post_processor = processors.BertProcessing(("[SEP]", tk.token_to_id("[SEP]")), ("[CLS]", tk.token_to_id("[CLS]")))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tk, pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]")


class SpamDataset(Dataset):
    def __init__(self, texts, labels):
        self.texts, self.labels = texts, labels

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        return self.texts[i], self.labels[i]


def collate(batch):
    enc = tokenizer([t for t, _ in batch], padding=True, truncation=True, max_length=48, return_tensors="pt")
    enc["labels"] = torch.tensor([y for _, y in batch])
    return enc


def main():
    accelerator = Accelerator(cpu=True, mixed_precision="bf16")
    split = 1600
    train_dl = DataLoader(SpamDataset(texts[:split], labels[:split]), batch_size=32, shuffle=True, collate_fn=collate)
    val_dl = DataLoader(SpamDataset(texts[split:], labels[split:]), batch_size=64, collate_fn=collate)

    cfg = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=256, max_position_embeddings=64, num_labels=2)
    model = BertForSequenceClassification(cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    epochs = 3
    scheduler = get_cosine_schedule_with_warmup(optimizer, 20, epochs * len(train_dl))
    model, optimizer, train_dl, val_dl, scheduler = accelerator.prepare(model, optimizer, train_dl, val_dl, scheduler)

    for epoch in range(epochs):
        model.train()
        for step, batch in enumerate(train_dl):
            out = model(**batch)
            accelerator.backward(out.loss)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            if step % 10 == 0:
                accelerator.print(f"epoch {epoch} step {step} loss {out.loss.item():.4f}")

        model.eval()
        correct = total = 0
        with torch.no_grad():
            for batch in val_dl:
                logits = model(**batch).logits
                preds, refs = accelerator.gather_for_metrics((logits.argmax(-1), batch["labels"]))
                correct += (preds == refs).sum().item()
                total += refs.numel()
        accelerator.print(f"epoch {epoch} val_acc {correct / total:.3f}")


if __name__ == "__main__":
    main()
