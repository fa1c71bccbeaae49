"""Fine-tune a small BERT-style encoder on the ticket-routing data with HF Trainer."""
import random

import torch
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification, Trainer,
                          TrainingArguments, set_seed)

set_seed(42)
NUM_LABELS = 6
VOCAB = 8000
MAX_LEN = 64


class RoutingDataset(Dataset):
    """Pre-tokenised tickets (ids produced by our sentencepiece pipeline)."""

    def __init__(self, n, seed):
        rng = random.Random(seed)
        self.items = []
        for _ in range(n):
            label = rng.randrange(NUM_LABELS)
            length = rng.randint(16, MAX_LEN)
            ids = [2] + [rng.randrange(10, VOCAB) if rng.random() < 0.7 else 100 + label * 50 + rng.randrange(50)
                         for _ in range(length - 2)] + [3]
            self.items.append((ids, label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        ids, label = self.items[i]
        pad = MAX_LEN - len(ids)
        return {
            "input_ids": torch.tensor(ids + [0] * pad),
            "attention_mask": torch.tensor([1] * len(ids) + [0] * pad),
            "labels": torch.tensor(label),
        }


train_ds = RoutingDataset(4000, seed=1)
val_ds = RoutingDataset(500, seed=2)
print(f"train={len(train_ds)} val={len(val_ds)}")

config = BertConfig(vocab_size=VOCAB, hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=512, max_position_embeddings=128, num_labels=NUM_LABELS)
model = BertForSequenceClassification(config)
print(f"params: {model.num_parameters():,}")

args = TrainingArguments(
    output_dir="runs/routing-bert",
    per_device_train_batch_size=32,
    per_device_eval_batch_size=64,
    num_train_epochs=3,
    learning_rate=5e-4,
    weight_decay=0.01,
    lr_scheduler_type="reduce_lr_on_plateau",
    lr_scheduler_kwargs={"factor": 0.5, "patience": 1},
    logging_steps=25,
    save_strategy="epoch",
    save_total_limit=2,
    report_to=[],
    use_cpu=True,
)

trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds)
trainer.train()
metrics = trainer.evaluate()
print(metrics)
