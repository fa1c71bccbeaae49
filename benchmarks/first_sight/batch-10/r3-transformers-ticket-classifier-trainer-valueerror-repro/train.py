"""Fine-tune a small BERT-style encoder to route support tickets into 3 queues
(0 = billing, 1 = technical, 2 = account). Tickets are exported from the helpdesk
as a CSV: text,queue"""
import csv
import os
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

set_seed(0)
random.seed(0)

# ---------------------------------------------------------------- data export
WORDS = {
    0: "invoice refund charged twice payment card billing receipt price plan".split(),
    1: "error crash install update bug slow timeout server connection app".split(),
    2: "password login email reset locked username profile delete account verify".split(),
}
FILLER = "hi please help i have a problem with my the since yesterday thanks".split()


def make_export(path, n):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["text", "queue"])
        for _ in range(n):
            q = random.randrange(3)
            words = random.sample(FILLER, 5) + random.sample(WORDS[q], 4)
            random.shuffle(words)
            w.writerow([" ".join(words), q])


os.makedirs("data", exist_ok=True)
make_export("data/tickets_train.csv", 600)
make_export("data/tickets_val.csv", 120)


def load_export(path):
    texts = []
    with open(path) as f:
        for row in csv.DictReader(f):
            texts.append(row["text"])
    labels = np.loadtxt(path, delimiter=",", skiprows=1, usecols=1)
    return texts, labels


# ---------------------------------------------------------------- tokenizer
train_texts, train_labels = load_export("data/tickets_train.csv")
val_texts, val_labels = load_export("data/tickets_val.csv")

raw_tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
raw_tok.pre_tokenizer = pre_tokenizers.Whitespace()
raw_tok.train_from_iterator(
    train_texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=raw_tok, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]")


class TicketDataset(torch.utils.data.Dataset):
    def __init__(self, texts, labels):
        self.enc = tokenizer(texts, truncation=True, max_length=32)
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: v[i] for k, v in self.enc.items()}
        item["labels"] = self.labels[i]
        return item


train_ds = TicketDataset(train_texts, train_labels)
val_ds = TicketDataset(val_texts, val_labels)
print(f"train={len(train_ds)} val={len(val_ds)} vocab={tokenizer.vocab_size}")

# ---------------------------------------------------------------- model
config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2,
                    num_attention_heads=2, intermediate_size=128, max_position_embeddings=64,
                    num_labels=3, id2label={0: "billing", 1: "technical", 2: "account"},
                    label2id={"billing": 0, "technical": 1, "account": 2})
model = BertForSequenceClassification(config)


def compute_metrics(p):
    return {"accuracy": float((p.predictions.argmax(-1) == p.label_ids).mean())}


args = TrainingArguments(
    output_dir="out/ticket-router",
    num_train_epochs=3,
    per_device_train_batch_size=16,
    per_device_eval_batch_size=32,
    learning_rate=5e-4,
    eval_strategy="epoch",
    save_strategy="no",
    logging_steps=10,
    report_to=[],
    use_cpu=True,
)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                  data_collator=DataCollatorWithPadding(tokenizer),
                  compute_metrics=compute_metrics)
trainer.train()
print(trainer.evaluate())
