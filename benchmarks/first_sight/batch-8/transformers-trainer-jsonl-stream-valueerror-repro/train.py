import json
import os
import random

import torch
from torch.utils.data import IterableDataset
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments

random.seed(0)
DATA = "reviews.jsonl"
if not os.path.exists(DATA):
    with open(DATA, "w") as f:
        for _ in range(20000):
            ids = [random.randrange(5, 2000) for _ in range(random.randint(8, 64))]
            f.write(json.dumps({"input_ids": ids, "label": int(sum(ids) % 2)}) + "\n")


class JsonlStream(IterableDataset):
    def __init__(self, path, max_len=64):
        self.path = path
        self.max_len = max_len

    def __iter__(self):
        with open(self.path) as f:
            for line in f:
                row = json.loads(line)
                ids = row["input_ids"][: self.max_len]
                pad = self.max_len - len(ids)
                yield {
                    "input_ids": torch.tensor(ids + [0] * pad),
                    "attention_mask": torch.tensor([1] * len(ids) + [0] * pad),
                    "labels": torch.tensor(row["label"]),
                }


config = BertConfig(vocab_size=2000, hidden_size=128, num_hidden_layers=2,
                    num_attention_heads=4, intermediate_size=256, num_labels=2)
model = BertForSequenceClassification(config)

args = TrainingArguments(
    output_dir="out",
    per_device_train_batch_size=32,
    num_train_epochs=3,
    learning_rate=5e-5,
    warmup_steps=100,
    logging_steps=50,
    save_strategy="epoch",
    report_to="none",
)

trainer = Trainer(model=model, args=args, train_dataset=JsonlStream(DATA))
trainer.train()
