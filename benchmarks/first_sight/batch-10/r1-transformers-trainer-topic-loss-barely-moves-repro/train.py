"""News-headline topic classifier (world / sports / business / tech) with a small DistilBERT
trained from scratch via the HF Trainer. Hyper-parameters follow the recipe we use for our
production model."""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (DataCollatorWithPadding, DistilBertConfig,
                          DistilBertForSequenceClassification, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments)

torch.set_num_threads(2)
random.seed(1)
np.random.seed(1)
torch.manual_seed(1)

TOPICS = ["world", "sports", "business", "tech"]
KEYS = {
    "world": ["election", "minister", "border", "summit", "treaty", "protest", "embassy"],
    "sports": ["match", "goal", "coach", "league", "final", "striker", "season"],
    "business": ["shares", "profit", "merger", "bank", "inflation", "earnings", "market"],
    "tech": ["software", "chip", "startup", "app", "cloud", "robot", "browser"],
}
FILL = ["the", "a", "after", "new", "as", "in", "over", "with", "record", "week", "talks",
        "report", "big", "says", "plans", "first", "year", "on", "for", "to"]


def headline(t):
    w = random.choices(FILL, k=random.randint(4, 8))
    for k in random.choices(KEYS[TOPICS[t]], k=random.randint(1, 2)):
        w.insert(random.randrange(len(w) + 1), k)
    return " ".join(w)


def split(n):
    ys = [random.randrange(4) for _ in range(n)]
    return [headline(y) for y in ys], ys


vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
for w in sorted(set(FILL + sum(KEYS.values(), []))):
    vocab[w] = len(vocab)
tk = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
tk.pre_tokenizer = pre_tokenizers.Whitespace()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tk, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]")


class HeadlineDataset(torch.utils.data.Dataset):
    def __init__(self, texts, labels):
        self.enc = tokenizer(["[CLS] " + t for t in texts], truncation=True, max_length=24,
                             return_token_type_ids=False)
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.enc["input_ids"][i],
                "attention_mask": self.enc["attention_mask"][i],
                "labels": self.labels[i]}


train_ds = HeadlineDataset(*split(1600))
val_ds = HeadlineDataset(*split(400))

config = DistilBertConfig(vocab_size=len(vocab), dim=64, n_layers=2, n_heads=2, hidden_dim=128,
                          max_position_embeddings=32, pad_token_id=0, num_labels=len(TOPICS))
model = DistilBertForSequenceClassification(config)


def compute_metrics(p):
    return {"accuracy": float((p.predictions.argmax(-1) == p.label_ids).mean())}


args = TrainingArguments(
    output_dir="/tmp/r1_topics",
    num_train_epochs=3,
    per_device_train_batch_size=32,
    per_device_eval_batch_size=128,
    learning_rate=5e-4,
    weight_decay=0.01,
    lr_scheduler_type="linear",
    warmup_steps=1000,
    max_grad_norm=1.0,
    eval_strategy="epoch",
    save_strategy="no",
    logging_steps=10,
    report_to=[],
    use_cpu=True,
    disable_tqdm=True,
    seed=1,
)

trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                  data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
trainer.train()
print(trainer.evaluate())
