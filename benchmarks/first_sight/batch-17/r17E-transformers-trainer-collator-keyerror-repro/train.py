"""Ticket-routing classifier: HF Trainer with on-the-fly tokenisation in a custom collator."""
import os
import random
import tempfile

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments, set_seed)

set_seed(0)
QUEUES = ["billing", "login", "shipping", "refund"]
KEYWORDS = {
    "billing": ["invoice", "charged", "card", "payment"],
    "login": ["password", "account", "locked", "2fa"],
    "shipping": ["parcel", "tracking", "courier", "delayed"],
    "refund": ["return", "money", "back", "refund"],
}
FILLER = "hi hello please help my the order i it is not and since yesterday thanks urgent".split()


def make_tickets(n, seed):
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        q = rng.randrange(len(QUEUES))
        words = [rng.choice(FILLER) for _ in range(rng.randint(8, 40))]
        for _ in range(2):
            words.insert(rng.randrange(len(words)), rng.choice(KEYWORDS[QUEUES[q]]))
        rows.append({"text": " ".join(words), "label": q})
    return rows


def build_tokenizer(texts):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(texts, trainers.WordPieceTrainer(
        vocab_size=500, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    return PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]",
                                   cls_token="[CLS]", sep_token="[SEP]", model_max_length=128)


class TicketDataset(torch.utils.data.Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


class TokenizeCollator:
    """Tokenise per batch so padding is only as long as the longest ticket in the batch."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer

    def __call__(self, features):
        batch = self.tokenizer([f["text"] for f in features], padding=True, truncation=True,
                               return_tensors="pt")
        batch["labels"] = torch.tensor([f["label"] for f in features])
        return batch


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    return {"accuracy": float((np.argmax(logits, -1) == labels).mean())}


def main():
    train_rows, eval_rows = make_tickets(4000, 0), make_tickets(500, 1)
    tokenizer = build_tokenizer([r["text"] for r in train_rows])
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=128, max_position_embeddings=128,
                        num_labels=len(QUEUES), id2label=dict(enumerate(QUEUES)),
                        label2id={q: i for i, q in enumerate(QUEUES)})
    model = BertForSequenceClassification(config)

    args = TrainingArguments(
        output_dir=os.path.join(tempfile.gettempdir(), "ticket_router"), num_train_epochs=2, learning_rate=1e-3,
        per_device_train_batch_size=32, per_device_eval_batch_size=64, eval_strategy="epoch",
        save_strategy="no", logging_steps=25, report_to="none", use_cpu=True, seed=0,
        disable_tqdm=True)
    trainer = Trainer(model=model, args=args, train_dataset=TicketDataset(train_rows),
                      eval_dataset=TicketDataset(eval_rows),
                      data_collator=TokenizeCollator(tokenizer), compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
