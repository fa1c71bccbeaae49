"""Train a small DistilBERT-style news-topic classifier from scratch with the HF Trainer."""
import random

import numpy as np
import torch
import transformers
from tokenizers import Tokenizer, models, pre_tokenizers, trainers, normalizers
from torch.utils.data import Dataset
from transformers import (DataCollatorWithPadding, DistilBertConfig,
                          DistilBertForSequenceClassification, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments)

TOPICS = ["business", "sports", "science", "politics", "entertainment"]
VOCAB = {
    "business": "market shares profit earnings merger bank investors stocks revenue ceo".split(),
    "sports": "match goal season coach league striker final tournament score team".split(),
    "science": "study researchers cells climate telescope physics species data lab genome".split(),
    "politics": "election minister vote parliament policy senate campaign law party reform".split(),
    "entertainment": "film album actor festival series director concert premiere star music".split(),
}
COMMON = "the a of in on to and for with new says after over year report week".split()


def make_rows(n, seed):
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        label = rng.randrange(len(TOPICS))
        words = rng.choices(VOCAB[TOPICS[label]], k=rng.randint(1, 2)) + rng.choices(COMMON + sum(VOCAB.values(), []), k=rng.randint(6, 12))
        rng.shuffle(words)
        rows.append({"text": " ".join(words), "label": label})
    return rows


def train_tokenizer(texts):
    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=1000, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


class NewsDataset(Dataset):
    def __init__(self, rows, tokenizer):
        self.enc = tokenizer([r["text"] for r in rows], truncation=True, max_length=64)
        self.labels = [r["label"] for r in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.enc["input_ids"][i], "attention_mask": self.enc["attention_mask"][i],
                "labels": self.labels[i]}


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    return {"accuracy": float((np.argmax(logits, -1) == labels).mean())}


def main():
    torch.manual_seed(0)
    print(f"transformers {transformers.__version__}, torch {torch.__version__}")
    train_rows, val_rows = make_rows(3000, 0), make_rows(500, 1)
    tokenizer = train_tokenizer([r["text"] for r in train_rows])
    print(f"label distribution: {np.bincount([r['label'] for r in train_rows]).tolist()}")

    config = DistilBertConfig(vocab_size=len(tokenizer), dim=128, n_layers=2, n_heads=4, hidden_dim=256,
                              max_position_embeddings=128, pad_token_id=tokenizer.pad_token_id)
    model = DistilBertForSequenceClassification(config)

    args = TrainingArguments(output_dir="out/news-topic", num_train_epochs=2, per_device_train_batch_size=32,
                             per_device_eval_batch_size=128, learning_rate=5e-4, warmup_steps=20,
                             eval_strategy="epoch", save_strategy="no", logging_steps=20,
                             report_to=[], use_cpu=True, disable_tqdm=True, seed=0)
    trainer = Trainer(model=model, args=args, train_dataset=NewsDataset(train_rows, tokenizer),
                      eval_dataset=NewsDataset(val_rows, tokenizer),
                      data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
