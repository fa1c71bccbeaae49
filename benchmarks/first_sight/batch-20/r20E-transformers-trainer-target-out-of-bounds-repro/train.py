"""Fine-tune a small BERT-style encoder on the support-ticket routing task.

Tickets are routed to one of four queues: billing, shipping, account, technical.
"""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, processors
from transformers import (BertConfig, BertForSequenceClassification,
                          DataCollatorWithPadding, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments)

SEED = 13
random.seed(SEED)
np.random.seed(SEED)
torch.manual_seed(SEED)

QUEUES = ["billing", "shipping", "account", "technical"]
KEYWORDS = {
    "billing": ["invoice", "refund", "charge", "payment", "price"],
    "shipping": ["parcel", "courier", "delivery", "tracking", "late"],
    "account": ["password", "login", "email", "username", "locked"],
    "technical": ["crash", "error", "bug", "install", "update"],
}
FILLER = ["please", "help", "my", "the", "is", "not", "with", "i", "have", "a", "problem", "today", "again"]


def make_ticket(rng):
    q = rng.randrange(len(QUEUES))
    words = rng.choices(FILLER, k=rng.randint(4, 10)) + rng.choices(KEYWORDS[QUEUES[q]], k=2)
    rng.shuffle(words)
    return " ".join(words), q


def build_tokenizer():
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"] + FILLER + sorted(w for ws in KEYWORDS.values() for w in ws)
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(vocab)}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


class TicketDataset(torch.utils.data.Dataset):
    def __init__(self, n, tokenizer, seed):
        rng = random.Random(seed)
        self.rows = [make_ticket(rng) for _ in range(n)]
        self.tok = tokenizer

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        enc = self.tok(text, truncation=True, max_length=32)
        enc["labels"] = label
        return enc


def compute_metrics(p):
    preds = p.predictions.argmax(-1)
    return {"accuracy": float((preds == p.label_ids).mean())}


def main():
    tokenizer = build_tokenizer()
    train_ds = TicketDataset(2000, tokenizer, seed=1)
    eval_ds = TicketDataset(400, tokenizer, seed=2)

    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=128,
        max_position_embeddings=64,
        pad_token_id=tokenizer.pad_token_id,
    )
    model = BertForSequenceClassification(config)
    print(f"model params: {sum(p.numel() for p in model.parameters()):,}")

    args = TrainingArguments(
        output_dir="out/ticket-router",
        per_device_train_batch_size=32,
        per_device_eval_batch_size=64,
        learning_rate=3e-4,
        num_train_epochs=3,
        eval_strategy="epoch",
        save_strategy="no",
        logging_steps=20,
        report_to="none",
        use_cpu=True,
        seed=SEED,
    )
    trainer = Trainer(
        model=model,
        args=args,
        train_dataset=train_ds,
        eval_dataset=eval_ds,
        data_collator=DataCollatorWithPadding(tokenizer),
        processing_class=tokenizer,
        compute_metrics=compute_metrics,
    )
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
