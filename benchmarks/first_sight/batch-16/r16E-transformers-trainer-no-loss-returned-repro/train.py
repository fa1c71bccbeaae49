import random

import numpy as np
import torch
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification, Trainer, TrainingArguments,
                          set_seed)

TOPICS = {
    0: ["goal", "match", "league", "coach", "striker", "season"],
    1: ["election", "senate", "vote", "policy", "minister", "campaign"],
    2: ["startup", "shares", "market", "revenue", "investor", "merger"],
    3: ["vaccine", "clinic", "patients", "therapy", "virus", "doctor"],
}
COMMON = ["the", "a", "of", "in", "on", "new", "report", "today", "says", "after", "week", "for"]
SPECIAL = ["[PAD]", "[CLS]", "[SEP]", "[UNK]"]
VOCAB = {w: i for i, w in enumerate(SPECIAL + COMMON + [w for ws in TOPICS.values() for w in ws])}
MAX_LEN = 32


class NewsTopicDataset(Dataset):
    def __init__(self, n, seed):
        rng = random.Random(seed)
        self.examples = []
        for _ in range(n):
            topic = rng.randrange(len(TOPICS))
            words = [rng.choice(COMMON) for _ in range(rng.randint(6, 20))]
            for _ in range(3):
                words.insert(rng.randint(0, len(words)), rng.choice(TOPICS[topic]))
            ids = [VOCAB["[CLS]"]] + [VOCAB[w] for w in words][: MAX_LEN - 2] + [VOCAB["[SEP]"]]
            mask = [1] * len(ids) + [0] * (MAX_LEN - len(ids))
            ids = ids + [VOCAB["[PAD]"]] * (MAX_LEN - len(ids))
            self.examples.append({"input_ids": ids, "attention_mask": mask, "topic": topic})

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, i):
        ex = self.examples[i]
        return {
            "input_ids": torch.tensor(ex["input_ids"]),
            "attention_mask": torch.tensor(ex["attention_mask"]),
            "topic": torch.tensor(ex["topic"]),
        }


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    return {"accuracy": float((np.argmax(logits, axis=-1) == labels).mean())}


def main():
    set_seed(42)
    train_ds = NewsTopicDataset(2000, seed=0)
    eval_ds = NewsTopicDataset(400, seed=1)

    config = BertConfig(vocab_size=len(VOCAB), hidden_size=128, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=256,
                        max_position_embeddings=MAX_LEN, num_labels=len(TOPICS))
    model = BertForSequenceClassification(config)

    args = TrainingArguments(
        output_dir="out/topic-bert",
        per_device_train_batch_size=32,
        per_device_eval_batch_size=64,
        num_train_epochs=2,
        learning_rate=3e-4,
        warmup_steps=10,
        eval_strategy="epoch",
        save_strategy="no",
        logging_steps=20,
        report_to="none",
        use_cpu=True,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                      compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
