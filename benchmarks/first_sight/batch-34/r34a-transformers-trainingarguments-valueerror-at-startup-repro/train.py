"""Fine-tune a small BERT intent classifier on the support-ticket export (CPU run)."""
import random

import numpy as np
import torch
import yaml
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

CONFIG = """
seed: 13
model:
  hidden_size: 128
  num_hidden_layers: 2
  num_attention_heads: 4
  intermediate_size: 256
  max_position_embeddings: 64
training:
  output_dir: runs/intent-bert-small
  num_train_epochs: 3
  per_device_train_batch_size: 32
  per_device_eval_batch_size: 64
  learning_rate: 0.0005
  weight_decay: 0.01
  warmup_steps: 30
  eval_strategy: epoch
  save_strategy: no
  logging_steps: 20
  report_to: none
"""

INTENTS = {
    "refund": ["refund", "money", "back", "charge", "return"],
    "shipping": ["delivery", "package", "shipping", "tracking", "courier"],
    "account": ["password", "login", "account", "email", "reset"],
    "billing": ["invoice", "billing", "card", "payment", "receipt"],
}
FILLER = "please help i need my the a with for order today asap hi thanks".split()


def make_tickets(n, rng):
    labels = list(INTENTS)
    texts, ys = [], []
    for _ in range(n):
        y = rng.randrange(len(labels))
        words = rng.sample(INTENTS[labels[y]], 2) + rng.sample(FILLER, rng.randint(3, 8))
        rng.shuffle(words)
        texts.append(" ".join(words))
        ys.append(y)
    return texts, ys


class TicketDataset(torch.utils.data.Dataset):
    def __init__(self, texts, labels, tok):
        self.enc = tok(texts, truncation=True, max_length=32)
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: v[i] for k, v in self.enc.items()}
        item["labels"] = self.labels[i]
        return item


def build_tokenizer():
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"] + sorted({w for ws in INTENTS.values() for w in ws} | set(FILLER))
    tk = Tokenizer(models.WordLevel({w: i for i, w in enumerate(vocab)}, unk_token="[UNK]"))
    tk.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=tk, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", model_max_length=64)


def compute_metrics(p):
    preds = np.argmax(p.predictions, axis=-1)
    return {"accuracy": float((preds == p.label_ids).mean())}


def main():
    cfg = yaml.safe_load(CONFIG)
    rng = random.Random(cfg["seed"])
    torch.manual_seed(cfg["seed"])
    tok = build_tokenizer()
    tr_x, tr_y = make_tickets(3000, rng)
    va_x, va_y = make_tickets(600, rng)
    train_ds, val_ds = TicketDataset(tr_x, tr_y, tok), TicketDataset(va_x, va_y, tok)
    print(f"train={len(train_ds)} val={len(val_ds)} vocab={tok.vocab_size}")

    mcfg = BertConfig(vocab_size=tok.vocab_size, num_labels=len(INTENTS), pad_token_id=tok.pad_token_id,
                      **cfg["model"])
    model = BertForSequenceClassification(mcfg)
    print(f"params={sum(p.numel() for p in model.parameters()) / 1e6:.2f}M")

    args = TrainingArguments(**cfg["training"], seed=cfg["seed"], use_cpu=True)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                      data_collator=DataCollatorWithPadding(tok), compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
