"""Ticket routing: small BERT trained from scratch with the HF Trainer (CPU)."""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

random.seed(0)
torch.manual_seed(0)

QUEUES = ["billing", "shipping", "technical", "account"]
KEYWORDS = {
    "billing": ["invoice", "charged", "refund", "vat", "payment"],
    "shipping": ["courier", "parcel", "tracking", "delivery", "customs"],
    "technical": ["error", "crash", "firmware", "reboot", "bluetooth"],
    "account": ["password", "login", "email", "profile", "locked"],
}
FILLER = ("hello team i am writing about my recent order and would appreciate a quick answer "
          "since this has happened before and i have already tried the steps on the help page").split()

MODEL_CFG = dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=256,
                 max_position_embeddings=128)
MAX_LEN = 256


def make_tickets(n):
    rows = []
    for _ in range(n):
        y = random.randrange(len(QUEUES))
        length = random.randint(15, 90) if random.random() < 0.998 else random.randint(130, 250)
        words = [random.choice(FILLER) for _ in range(length)]
        for _ in range(3):
            words[random.randrange(length)] = random.choice(KEYWORDS[QUEUES[y]])
        rows.append({"text": " ".join(words), "label": y})
    return rows


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]",
                                                       special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", model_max_length=MAX_LEN)


class Encoded(torch.utils.data.Dataset):
    def __init__(self, rows, tokenizer):
        self.enc = tokenizer([r["text"] for r in rows], truncation=True, max_length=MAX_LEN)
        self.labels = [r["label"] for r in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.enc["input_ids"][i], "attention_mask": self.enc["attention_mask"][i],
                "labels": self.labels[i]}


def compute_metrics(pred):
    return {"accuracy": float((np.argmax(pred.predictions, -1) == pred.label_ids).mean())}


def main():
    train_rows, val_rows = make_tickets(2000), make_tickets(400)
    tokenizer = build_tokenizer(r["text"] for r in train_rows)
    train_ds, val_ds = Encoded(train_rows, tokenizer), Encoded(val_rows, tokenizer)

    config = BertConfig(vocab_size=len(tokenizer), num_labels=len(QUEUES), pad_token_id=tokenizer.pad_token_id,
                        **MODEL_CFG)
    model = BertForSequenceClassification(config)
    args = TrainingArguments(
        output_dir="out-ticket-router", per_device_train_batch_size=32, per_device_eval_batch_size=64,
        num_train_epochs=2, learning_rate=5e-4, warmup_steps=20, logging_steps=10,
        eval_strategy="epoch", save_strategy="no", report_to=[], use_cpu=True, seed=2,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                      data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
