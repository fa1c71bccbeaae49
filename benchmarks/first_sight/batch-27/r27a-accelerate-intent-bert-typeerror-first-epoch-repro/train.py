"""Intent classifier (small BERT from scratch) trained with accelerate on CPU.

Run: accelerate launch --cpu train.py   (or plain python train.py)
"""
import random

import torch
from accelerate import Accelerator
from tokenizers import Tokenizer, models, pre_tokenizers
from torch.utils.data import DataLoader
from transformers import (BertConfig, BertForSequenceClassification,
                          PreTrainedTokenizerFast, get_linear_schedule_with_warmup)

INTENTS = {
    "billing": ["invoice", "charge", "refund", "payment", "card", "bill"],
    "shipping": ["parcel", "delivery", "courier", "tracking", "shipped", "late"],
    "account": ["password", "login", "email", "locked", "username", "reset"],
    "product": ["broken", "size", "colour", "manual", "warranty", "battery"],
}
FILLER = "i my the a please help with need can you is it not order today again why".split()
EPOCHS, BATCH, LR, MAX_LEN = 3, 32, 5e-4, 32


def make_split(n, seed):
    rng = random.Random(seed)
    names = sorted(INTENTS)
    rows = []
    for _ in range(n):
        label = rng.randrange(len(names))
        words = rng.sample(FILLER, 6) + rng.sample(INTENTS[names[label]], 2)
        rng.shuffle(words)
        rows.append((" ".join(words), label))
    return rows


def build_tokenizer(texts):
    vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
    for t in texts:
        for w in t.split():
            vocab.setdefault(w, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


def main():
    accelerator = Accelerator(cpu=True)
    train_rows, val_rows = make_split(6000, 0), make_split(1000, 1)
    tokenizer = build_tokenizer([t for t, _ in train_rows])

    def collate(rows):
        enc = tokenizer([t for t, _ in rows], padding=True, truncation=True,
                        max_length=MAX_LEN, return_tensors="pt")
        enc["labels"] = torch.tensor([l for _, l in rows])
        return enc

    train_loader = DataLoader(train_rows, batch_size=BATCH, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(val_rows, batch_size=128, collate_fn=collate)

    config = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2,
                        num_attention_heads=4, intermediate_size=256,
                        max_position_embeddings=64, num_labels=len(INTENTS))
    model = BertForSequenceClassification(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
    num_training_steps = EPOCHS * len(train_loader)
    lr_scheduler = get_linear_schedule_with_warmup(optimizer, num_training_steps // 10,
                                                   num_training_steps)

    model, optimizer, train_loader, lr_scheduler, val_loader = accelerator.prepare(
        model, optimizer, lr_scheduler, train_loader, val_loader)

    accelerator.print(f"train={len(train_rows)} val={len(val_rows)} vocab={len(tokenizer)} "
                      f"steps={num_training_steps}")
    for epoch in range(EPOCHS):
        model.train()
        for step, batch in enumerate(train_loader):
            out = model(**batch)
            accelerator.backward(out.loss)
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
            if step % 50 == 0:
                accelerator.print(f"epoch {epoch} step {step} loss {out.loss.item():.4f}")
        model.eval()
        correct = total = 0
        for batch in val_loader:
            with torch.no_grad():
                preds = model(**batch).logits.argmax(-1)
            preds, labels = accelerator.gather_for_metrics((preds, batch["labels"]))
            correct += (preds == labels).sum().item()
            total += labels.numel()
        accelerator.print(f"epoch {epoch} val_acc {correct / total:.4f}")


if __name__ == "__main__":
    main()
