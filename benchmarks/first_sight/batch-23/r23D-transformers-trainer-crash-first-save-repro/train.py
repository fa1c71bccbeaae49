"""Ticket-priority classifier: small BERT trained from scratch with HF Trainer on our own
WordLevel tokenizer (trained with `tokenizers` on the ticket corpus)."""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

LABELS = ["low", "normal", "high"]
random.seed(0)

VOCAB = {
    "low": "typo colour font suggestion wording icon tooltip spacing".split(),
    "normal": "slow export filter report sorting timezone csv pagination".split(),
    "high": "outage down crash payment breach lost corrupted urgent".split(),
}
FILLER = "the a customer says when we open page after update please check it is on our app".split()


def make_tickets(n):
    rows = []
    for _ in range(n):
        lab = random.randrange(3)
        words = random.choices(FILLER, k=random.randint(6, 18)) + random.choices(VOCAB[LABELS[lab]], k=2)
        if random.random() < 0.15:
            words += random.choices(VOCAB[LABELS[random.randrange(3)]], k=1)
        random.shuffle(words)
        rows.append((" ".join(words), lab))
    return rows


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(
        special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", model_max_length=64)


class TicketDataset(torch.utils.data.Dataset):
    def __init__(self, rows, tokenizer):
        self.enc = tokenizer([t for t, _ in rows], truncation=True)
        self.labels = [l for _, l in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: v[i] for k, v in self.enc.items()}
        item["labels"] = self.labels[i]
        return item


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = logits.argmax(-1)
    f1s = []
    for c in range(len(LABELS)):
        tp = np.sum((preds == c) & (labels == c))
        denom = np.sum(preds == c) + np.sum(labels == c)
        f1s.append(2 * tp / denom if denom else 0.0)
    return {"accuracy": float((preds == labels).mean()), "macro_f1": float(np.mean(f1s))}


def main():
    train_rows, val_rows = make_tickets(3000), make_tickets(500)
    tokenizer = build_tokenizer([t for t, _ in train_rows])
    cfg = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2,
                     num_attention_heads=2, intermediate_size=128, max_position_embeddings=64,
                     num_labels=len(LABELS), pad_token_id=tokenizer.pad_token_id)
    model = BertForSequenceClassification(cfg)

    args = TrainingArguments(
        output_dir="out",
        num_train_epochs=4,
        per_device_train_batch_size=32,
        per_device_eval_batch_size=64,
        learning_rate=1e-3,
        warmup_steps=20,
        eval_strategy="epoch",
        save_strategy="epoch",
        save_total_limit=2,
        load_best_model_at_end=True,
        metric_for_best_model="f1",
        greater_is_better=True,
        logging_steps=25,
        report_to="none",
        use_cpu=True,
        seed=0,
    )
    trainer = Trainer(model=model, args=args,
                      train_dataset=TicketDataset(train_rows, tokenizer),
                      eval_dataset=TicketDataset(val_rows, tokenizer),
                      data_collator=DataCollatorWithPadding(tokenizer),
                      compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate())
    trainer.save_model("out/best")


if __name__ == "__main__":
    main()
