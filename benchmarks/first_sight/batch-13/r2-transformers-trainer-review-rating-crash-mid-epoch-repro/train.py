"""Star-rating prediction (1-5) for app-store reviews with a small BERT and the HF Trainer.

reviews.jsonl comes from the scraper: one JSON object per line with "text" and "stars".
"""
import json
import os
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

DATA = "reviews.jsonl"
POS = ["love", "great", "perfect", "fast", "useful", "smooth", "recommend"]
NEG = ["crash", "slow", "useless", "ads", "bug", "refund", "terrible"]
FILLER = ["the", "app", "is", "this", "update", "after", "really", "very", "since", "and", "it"]


def write_scraper_dump(path, n=3000, seed=0):
    """Simulates the scraper output."""
    rng = random.Random(seed)
    with open(path, "w") as f:
        for i in range(n):
            stars = rng.randint(1, 5)
            words = [rng.choice(FILLER) for _ in range(rng.randint(5, 25))]
            for _ in range(3):
                words.insert(rng.randrange(len(words)), rng.choice(POS if stars >= 4 else NEG
                                                                   if stars <= 2 else POS + NEG))
            line = json.dumps({"id": i, "text": " ".join(words), "stars": stars})
            if rng.random() < 0.004:
                line = line[: rng.randint(10, len(line) - 5)]
            f.write(line + "\n")


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(
        special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


class ReviewDataset(Dataset):
    """Parses lazily so that a bad line does not kill the whole job."""

    def __init__(self, lines, tokenizer, max_len=64):
        self.lines = lines
        self.tokenizer = tokenizer
        self.max_len = max_len

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, i):
        try:
            row = json.loads(self.lines[i])
        except json.JSONDecodeError:
            return None
        enc = self.tokenizer(row["text"], truncation=True, max_length=self.max_len)
        enc["labels"] = row["stars"] - 1
        return enc


def main():
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    if not os.path.exists(DATA):
        write_scraper_dump(DATA)
    with open(DATA) as f:
        lines = f.read().splitlines()
    random.shuffle(lines)
    train_lines, val_lines = lines[:2600], lines[2600:]
    tokenizer = build_tokenizer(l for l in train_lines)
    train_ds = ReviewDataset(train_lines, tokenizer)
    val_ds = ReviewDataset(val_lines, tokenizer)
    print(f"torch {torch.__version__} | {len(train_ds)} train / {len(val_ds)} val reviews")

    cfg = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2,
                     num_attention_heads=2, intermediate_size=256, max_position_embeddings=128,
                     num_labels=5, pad_token_id=tokenizer.pad_token_id)
    model = BertForSequenceClassification(cfg)

    args = TrainingArguments(output_dir="out-stars", num_train_epochs=3,
                             per_device_train_batch_size=32, per_device_eval_batch_size=64,
                             learning_rate=1e-3, logging_steps=20, eval_strategy="epoch",
                             save_strategy="no", report_to="none", disable_tqdm=True, seed=0)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                      data_collator=DataCollatorWithPadding(tokenizer))
    trainer.train()
    trainer.save_model("stars-bert")


if __name__ == "__main__":
    main()
