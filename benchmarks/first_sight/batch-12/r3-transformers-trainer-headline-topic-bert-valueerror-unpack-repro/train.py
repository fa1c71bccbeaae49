"""Fine-tune a small BERT on our news-headline topic data with the HF Trainer.

The model is trained from scratch here (tiny config) because the real
checkpoint lives on the cluster; the pipeline is the same.
"""
import os
import random

import numpy as np
import torch
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification,
                          BertTokenizerFast, Trainer, TrainingArguments)

random.seed(0)
torch.manual_seed(0)

TOPICS = {
    "sports": "match goal league coach striker season cup final injury transfer referee stadium",
    "business": "shares market profit quarter bank investors merger revenue inflation stocks deal ceo",
    "tech": "software startup chip cloud app smartphone launch update security data ai robot",
    "politics": "election minister vote parliament party campaign senate policy reform bill debate law",
}
LABELS = sorted(TOPICS)
FILLER = "the a in on after with over new says report first big".split()
MAX_LEN = 32
OUT_DIR = "out_topic_bert"


def make_headlines(n):
    rows = []
    for _ in range(n):
        topic = random.choice(LABELS)
        words = random.sample(TOPICS[topic].split(), 4) + random.sample(FILLER, 3)
        random.shuffle(words)
        rows.append((" ".join(words), LABELS.index(topic)))
    return rows


def build_tokenizer(path="vocab.txt"):
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    for t in TOPICS.values():
        vocab += t.split()
    vocab += FILLER
    with open(path, "w") as f:
        f.write("\n".join(dict.fromkeys(vocab)) + "\n")
    return BertTokenizerFast(vocab=path, do_lower_case=True)


class HeadlineDataset(Dataset):
    def __init__(self, rows, tokenizer):
        self.rows = rows
        self.tok = tokenizer

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        enc = self.tok(text, padding="max_length", truncation=True,
                       max_length=MAX_LEN, return_tensors="pt")
        item = {k: v for k, v in enc.items()}
        item["labels"] = torch.tensor(label)
        return item


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    return {"accuracy": float((np.argmax(logits, axis=-1) == labels).mean())}


def main():
    tok = build_tokenizer()
    train_ds = HeadlineDataset(make_headlines(1200), tok)
    val_ds = HeadlineDataset(make_headlines(400), tok)
    print(f"train={len(train_ds)} val={len(val_ds)} vocab={tok.vocab_size}")

    config = BertConfig(vocab_size=tok.vocab_size, hidden_size=64, num_hidden_layers=2,
                        num_attention_heads=4, intermediate_size=128,
                        max_position_embeddings=64, num_labels=len(LABELS),
                        id2label=dict(enumerate(LABELS)),
                        label2id={l: i for i, l in enumerate(LABELS)})
    model = BertForSequenceClassification(config)

    args = TrainingArguments(
        output_dir=OUT_DIR,
        num_train_epochs=2,
        per_device_train_batch_size=32,
        per_device_eval_batch_size=64,
        learning_rate=5e-4,
        eval_strategy="epoch",
        save_strategy="no",
        logging_steps=20,
        report_to=[],
        use_cpu=True,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_ds,
                      eval_dataset=val_ds, compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
