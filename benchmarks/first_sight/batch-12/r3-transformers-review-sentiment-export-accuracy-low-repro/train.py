"""App-store review sentiment: train a small BERT with the Trainer, then score
the latest export of reviews and compare with the star ratings.
"""
import random
import re

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

rng = random.Random(0)
torch.manual_seed(0)

POS = ["great", "love", "excellent", "smooth", "fast", "helpful", "amazing", "reliable", "perfect", "easy"]
NEG = ["terrible", "crashes", "slow", "useless", "broken", "awful", "laggy", "buggy", "annoying", "worst"]
NOUNS = ["app", "update", "interface", "login", "sync", "battery usage", "support team", "dark mode", "search"]
FRAMES = ["the {n} is {w}", "{w} {n}", "really {w} since the last update", "{w} , would say {w2}",
          "honestly the {n} feels {w}", "{w} experience overall"]


def style(word):
    r = rng.random()
    return word if r < 0.3 else (word.capitalize() if r < 0.75 else word.upper())


def make_reviews(n):
    out = []
    for _ in range(n):
        label = rng.randint(0, 1)
        words = POS if label else NEG
        parts = [rng.choice(FRAMES).format(n=rng.choice(NOUNS), w=style(rng.choice(words)),
                                           w2=style(rng.choice(words))) for _ in range(2)]
        text = ". ".join(parts)
        text = text[0].upper() + text[1:] + rng.choice([".", "!", "!!", ""])
        out.append((text, label))
    return out


def clean(text):
    text = text.lower()
    text = re.sub(r"[^a-z0-9\s]", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


class ReviewDataset(Dataset):
    def __init__(self, rows, tokenizer):
        self.rows, self.tok = rows, tokenizer

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        enc = self.tok(clean(text), truncation=True, max_length=48)
        return {"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"], "labels": label}


def compute_metrics(p):
    return {"accuracy": float((p.predictions.argmax(-1) == p.label_ids).mean())}


def predict(model, tokenizer, texts, batch_size=64):
    model.eval()
    preds = []
    for i in range(0, len(texts), batch_size):
        enc = tokenizer(texts[i:i + batch_size], padding=True, truncation=True, max_length=48,
                        return_tensors="pt")
        with torch.no_grad():
            logits = model(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"]).logits
        preds.append(logits.argmax(-1))
    return torch.cat(preds).numpy()


def main():
    train_rows, val_rows = make_reviews(2000), make_reviews(400)
    tokenizer = build_tokenizer(clean(t) for t, _ in train_rows)
    print(f"vocab: {len(tokenizer)}  train: {len(train_rows)}  val: {len(val_rows)}")

    config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=128, max_position_embeddings=64, num_labels=2,
                        pad_token_id=tokenizer.pad_token_id)
    model = BertForSequenceClassification(config)

    args = TrainingArguments(output_dir="out_review_sentiment", num_train_epochs=2,
                             per_device_train_batch_size=32, per_device_eval_batch_size=128,
                             learning_rate=1e-3, eval_strategy="epoch", save_strategy="no",
                             logging_steps=50, report_to="none", use_cpu=True, disable_tqdm=True)
    trainer = Trainer(model=model, args=args, train_dataset=ReviewDataset(train_rows, tokenizer),
                      eval_dataset=ReviewDataset(val_rows, tokenizer),
                      data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
    trainer.train()
    print("final eval:", trainer.evaluate())

    # score this week's export from the app store
    export = make_reviews(500)
    texts = [t for t, _ in export]
    stars_label = np.array([l for _, l in export])
    preds = predict(model, tokenizer, texts)
    print(f"export: {len(texts)} reviews, predicted positive: {preds.mean():.1%}, "
          f"actual positive: {stars_label.mean():.1%}")
    print(f"export accuracy vs star rating: {(preds == stars_label).mean():.3f}")
    for t, p, l in list(zip(texts, preds, stars_label))[:6]:
        print(f"  pred={p} stars_label={l}  {t}")


if __name__ == "__main__":
    main()
