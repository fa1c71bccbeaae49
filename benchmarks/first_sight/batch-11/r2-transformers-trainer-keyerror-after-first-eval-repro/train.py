"""Product-review sentiment (neg/neutral/pos) with a small BERT and the HF Trainer.
Keeps the checkpoint with the best macro-F1 on the validation split."""
import os
import random

import numpy as np
import torch
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification, BertTokenizerFast,
                          Trainer, TrainingArguments)

WORK = "/tmp/review-sentiment"
LABELS = ["negative", "neutral", "positive"]
WORDS = {
    0: ["broke", "awful", "refund", "useless", "disappointed", "cheap"],
    1: ["okay", "average", "fine", "expected", "decent", "normal"],
    2: ["love", "excellent", "perfect", "great", "recommend", "amazing"],
}
FILLER = ["the", "product", "arrived", "it", "is", "this", "was", "and", "really", "quite"]


def make_reviews(n, seed):
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        y = rng.choices([0, 1, 2], weights=[0.25, 0.2, 0.55])[0]
        words = rng.choices(FILLER, k=8) + rng.choices(WORDS[y], k=2)
        if rng.random() < 0.15:  # some noisy labels
            y = rng.randrange(3)
        rng.shuffle(words)
        rows.append((" ".join(words), y))
    return rows


class ReviewDataset(Dataset):
    def __init__(self, rows, tok):
        enc = tok([t for t, _ in rows], padding="max_length", truncation=True, max_length=16)
        self.items = [{"input_ids": torch.tensor(enc["input_ids"][i]),
                       "attention_mask": torch.tensor(enc["attention_mask"][i]),
                       "labels": torch.tensor(y)} for i, (_, y) in enumerate(rows)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = np.argmax(logits, axis=-1)
    f1s = []
    for c in range(len(LABELS)):
        tp = np.sum((preds == c) & (labels == c))
        fp = np.sum((preds == c) & (labels != c))
        fn = np.sum((preds != c) & (labels == c))
        f1s.append(2 * tp / max(2 * tp + fp + fn, 1))
    return {"accuracy": float((preds == labels).mean()), "macro_f1": float(np.mean(f1s))}


def main():
    torch.manual_seed(0)
    os.makedirs(WORK, exist_ok=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + FILLER + [w for ws in WORDS.values() for w in ws]
    with open(f"{WORK}/vocab.txt", "w") as f:
        f.write("\n".join(vocab))
    tok = BertTokenizerFast.from_pretrained(WORK)

    train_ds = ReviewDataset(make_reviews(2000, 1), tok)
    val_ds = ReviewDataset(make_reviews(400, 2), tok)
    cfg = BertConfig(vocab_size=len(tok), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=128, max_position_embeddings=32, num_labels=len(LABELS),
                     id2label=dict(enumerate(LABELS)), label2id={l: i for i, l in enumerate(LABELS)})
    model = BertForSequenceClassification(cfg)

    args = TrainingArguments(
        output_dir=f"{WORK}/checkpoints",
        num_train_epochs=3,
        per_device_train_batch_size=32,
        per_device_eval_batch_size=64,
        learning_rate=1e-3,
        eval_strategy="epoch",
        save_strategy="epoch",
        save_total_limit=2,
        load_best_model_at_end=True,
        metric_for_best_model="f1",
        greater_is_better=True,
        logging_steps=25,
        report_to="none",
        use_cpu=True,
        disable_tqdm=True,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                      compute_metrics=compute_metrics)
    trainer.train()
    print("best checkpoint:", trainer.state.best_model_checkpoint)
    print(trainer.evaluate())
    trainer.save_model(f"{WORK}/final")


if __name__ == "__main__":
    main()
