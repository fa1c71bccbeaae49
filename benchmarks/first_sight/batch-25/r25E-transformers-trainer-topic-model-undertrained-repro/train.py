"""Ticket topic classifier: small BERT trained from scratch with the HF Trainer (CPU runner)."""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

TOPICS = {
    "billing": ["invoice", "charged", "refund", "payment", "card", "vat", "receipt"],
    "login": ["password", "login", "locked", "2fa", "sso", "reset", "code"],
    "shipping": ["parcel", "tracking", "courier", "delivery", "label", "customs", "address"],
    "bug": ["crash", "error", "freezes", "blank", "button", "update", "screen"],
    "account": ["delete", "rename", "owner", "seat", "plan", "upgrade", "workspace"],
}
COMMON = "hi hello please help my the a an is not with since yesterday today again thanks urgent we i it our".split()
LABELS = list(TOPICS)

# shared team recipe (see wiki: "trainer defaults for small classifiers")
RECIPE = dict(
    learning_rate=5e-4, per_device_train_batch_size=32, per_device_eval_batch_size=128,
    num_train_epochs=8, weight_decay=0.01, warmup_steps=30, lr_scheduler_type="linear",
    max_steps=60, logging_steps=20, eval_strategy="epoch", save_strategy="no",
    report_to=[], disable_tqdm=True, seed=13, use_cpu=True,
)


def make_ticket(rng):
    y = rng.randrange(len(LABELS))
    words = rng.sample(COMMON, 6) + rng.sample(TOPICS[LABELS[y]], 2)
    other = LABELS[rng.randrange(len(LABELS))]          # distractor word from another topic
    words.append(rng.choice(TOPICS[other]))
    rng.shuffle(words)
    if rng.random() < 0.06:                              # ~6% mislabeled by the triage team
        y = rng.randrange(len(LABELS))
    return " ".join(words), y


def build_tokenizer(texts):
    tk = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tk.normalizer = normalizers.BertNormalizer(lowercase=True)
    tk.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tk.train_from_iterator(texts, trainers.WordPieceTrainer(vocab_size=400, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    tok = PreTrainedTokenizerFast(tokenizer_object=tk, pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]",
                                  sep_token="[SEP]", model_max_length=64)
    tok._tokenizer.post_processor = __import__("tokenizers").processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", tok.cls_token_id), ("[SEP]", tok.sep_token_id)])
    return tok


class TicketDS(torch.utils.data.Dataset):
    def __init__(self, rows, tok):
        self.enc = [tok(t, truncation=True) for t, _ in rows]
        self.y = [y for _, y in rows]

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {**self.enc[i], "labels": self.y[i]}


def compute_metrics(p):
    return {"accuracy": float((np.argmax(p.predictions, -1) == p.label_ids).mean())}


def main():
    set_seed(RECIPE["seed"])
    rng = random.Random(0)
    rows = [make_ticket(rng) for _ in range(5000)]
    train_rows, eval_rows = rows[:4000], rows[4000:]
    tok = build_tokenizer([t for t, _ in train_rows])
    cfg = BertConfig(vocab_size=len(tok), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=128, max_position_embeddings=64, num_labels=len(LABELS),
                     pad_token_id=tok.pad_token_id)
    model = BertForSequenceClassification(cfg)
    args = TrainingArguments(output_dir="/tmp/ticket-topic", **RECIPE)
    print(f"train={len(train_rows)} eval={len(eval_rows)} epochs={args.num_train_epochs} "
          f"batch={args.per_device_train_batch_size} lr={args.learning_rate}", flush=True)
    trainer = Trainer(model=model, args=args, train_dataset=TicketDS(train_rows, tok),
                      eval_dataset=TicketDS(eval_rows, tok), data_collator=DataCollatorWithPadding(tok),
                      compute_metrics=compute_metrics)
    out = trainer.train()
    print(out)
    print("final eval:", trainer.evaluate())


if __name__ == "__main__":
    main()
