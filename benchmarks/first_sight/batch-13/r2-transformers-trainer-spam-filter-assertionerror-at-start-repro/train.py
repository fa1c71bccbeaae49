"""SMS spam filter: tiny DistilBERT trained from scratch with the HF Trainer.

We train for up to 20 epochs and stop early once validation stops improving.
"""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from torch.utils.data import Dataset
from transformers import (DataCollatorWithPadding, DistilBertConfig,
                          DistilBertForSequenceClassification, EarlyStoppingCallback,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

HAM = ["are we still on for {t}", "call me when you get home", "can you pick up milk",
       "running late, see you at {t}", "happy birthday!! have a great day", "ok see you {t}"]
SPAM = ["congratulations you won a {p} prize call now", "free {p} voucher reply yes to claim",
        "urgent your account is suspended click {u}", "win cash now text win to {n}",
        "you have been selected for a {p} reward visit {u}"]
FILL = {"t": ["7", "noon", "tomorrow", "8pm"], "p": ["1000", "iphone", "holiday", "gift card"],
        "u": ["bit.ly/x2", "tinyurl.com/ab", "secure-login.info"], "n": ["80082", "61234"]}


def make_sms(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        spam = rng.random() < 0.25
        text = rng.choice(SPAM if spam else HAM).format(**{k: rng.choice(v) for k, v in FILL.items()})
        out.append((text, int(spam)))
    return out


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(
        special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


class SmsDataset(Dataset):
    def __init__(self, rows, tokenizer):
        self.enc = tokenizer([t for t, _ in rows], truncation=True, max_length=48)
        self.labels = [y for _, y in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.enc["input_ids"][i],
                "attention_mask": self.enc["attention_mask"][i], "labels": self.labels[i]}


def compute_metrics(p):
    pred = p.predictions.argmax(-1)
    y = p.label_ids
    tp = int(((pred == 1) & (y == 1)).sum())
    prec = tp / max(int((pred == 1).sum()), 1)
    rec = tp / max(int((y == 1).sum()), 1)
    f1 = 2 * prec * rec / max(prec + rec, 1e-9)
    return {"accuracy": float((pred == y).mean()), "precision": prec, "recall": rec, "f1": f1}


def main():
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    train_rows, val_rows = make_sms(2000, 0), make_sms(400, 1)
    tokenizer = build_tokenizer(t for t, _ in train_rows)
    train_ds, val_ds = SmsDataset(train_rows, tokenizer), SmsDataset(val_rows, tokenizer)

    cfg = DistilBertConfig(vocab_size=tokenizer.vocab_size, dim=64, n_layers=2, n_heads=2,
                           hidden_dim=128, max_position_embeddings=64, num_labels=2,
                           pad_token_id=tokenizer.pad_token_id)
    model = DistilBertForSequenceClassification(cfg)
    print(f"torch {torch.__version__}, params {model.num_parameters():,}")

    args = TrainingArguments(
        output_dir="out-spam",
        num_train_epochs=20,
        per_device_train_batch_size=32,
        per_device_eval_batch_size=64,
        learning_rate=5e-4,
        eval_strategy="epoch",
        save_strategy="epoch",
        save_total_limit=2,
        logging_strategy="epoch",
        report_to="none",
        disable_tqdm=True,
        seed=0,
    )
    trainer = Trainer(
        model=model,
        args=args,
        train_dataset=train_ds,
        eval_dataset=val_ds,
        data_collator=DataCollatorWithPadding(tokenizer),
        compute_metrics=compute_metrics,
        callbacks=[EarlyStoppingCallback(early_stopping_patience=3)],
    )
    trainer.train()
    print(trainer.evaluate())
    trainer.save_model("spam-distilbert")


if __name__ == "__main__":
    main()
