"""Support-ticket urgency classifier: small from-scratch Transformer encoder
trained with the HF Trainer (word-level tokenizer built from the corpus)."""
import random

import numpy as np
import torch
import torch.nn as nn
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (DataCollatorWithPadding, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments, set_seed)

set_seed(0)
random.seed(0)

URGENT = ["outage", "down", "cannot login", "payment failed", "data loss", "security breach",
          "site unreachable", "checkout broken", "error 500", "locked out"]
ROUTINE = ["invoice copy", "change address", "feature request", "how do i", "update email",
           "export report", "thank you", "newsletter", "password reset link", "dark mode"]
FILLER = ["hello", "team", "please", "we", "noticed", "that", "since", "this", "morning",
          "our", "account", "customers", "are", "asking", "about", "the", "app", "again",
          "could", "you", "look", "into", "it", "regards", "thanks", "for", "help", "today"]


def make_ticket(urgent):
    key = random.choice(URGENT if urgent else ROUTINE)
    words = random.choices(FILLER, k=random.randint(3, 30))
    words.insert(random.randint(0, len(words)), key)
    return " ".join(words)


def make_split(n):
    labels = [random.randint(0, 1) for _ in range(n)]
    return [{"text": make_ticket(l), "label": l} for l in labels]


train_rows, eval_rows = make_split(1600), make_split(400)

wl = Tokenizer(models.WordLevel(unk_token="[UNK]"))
wl.pre_tokenizer = pre_tokenizers.Whitespace()
wl.train_from_iterator([r["text"] for r in train_rows],
                       trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wl, pad_token="[PAD]", unk_token="[UNK]")


class TicketDataset(torch.utils.data.Dataset):
    def __init__(self, rows):
        self.enc = [tokenizer(r["text"], truncation=True, max_length=64) for r in rows]
        self.labels = [r["label"] for r in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = dict(self.enc[i])
        item["labels"] = self.labels[i]
        return item


class TicketEncoder(nn.Module):
    def __init__(self, vocab_size, d_model=64, n_heads=4, n_layers=2, n_classes=2, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, d_model, padding_idx=tokenizer.pad_token_id)
        self.pos = nn.Embedding(max_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, 4 * d_model, dropout=0.1,
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers)
        self.head = nn.Linear(d_model, n_classes)

    def forward(self, input_ids, attention_mask, labels=None):
        pos = torch.arange(input_ids.size(1), device=input_ids.device)
        h = self.tok(input_ids) + self.pos(pos)
        h = self.encoder(h, src_key_padding_mask=attention_mask.bool())
        m = attention_mask.unsqueeze(-1).float()
        pooled = (h * m).sum(1) / m.sum(1)
        logits = self.head(pooled)
        out = {"logits": logits}
        if labels is not None:
            out["loss"] = nn.functional.cross_entropy(logits, labels)
        return out


def compute_metrics(p):
    preds = np.argmax(p.predictions, axis=-1)
    return {"accuracy": float((preds == p.label_ids).mean())}


model = TicketEncoder(tokenizer.vocab_size)
args = TrainingArguments(
    output_dir="/tmp/ticket_encoder_out",
    per_device_train_batch_size=32,
    per_device_eval_batch_size=64,
    learning_rate=5e-4,
    num_train_epochs=3,
    eval_strategy="epoch",
    logging_steps=10,
    save_strategy="no",
    report_to=[],
    use_cpu=True,
    disable_tqdm=True,
)
trainer = Trainer(
    model=model,
    args=args,
    train_dataset=TicketDataset(train_rows),
    eval_dataset=TicketDataset(eval_rows),
    data_collator=DataCollatorWithPadding(tokenizer),
    compute_metrics=compute_metrics,
)
trainer.train()
print(trainer.evaluate())
