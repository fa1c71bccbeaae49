"""Intent router for the support inbox: small BERT trained from scratch with a class-weighted
loss (the 'billing' and 'cancel' intents are rare but expensive to miss)."""
import os
import random

import numpy as np
import torch
import torch.nn as nn
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

INTENTS = ["shipping", "returns", "account", "billing", "cancel"]
PRIOR = [0.45, 0.30, 0.15, 0.06, 0.04]
KEYWORDS = {
    "shipping": ["parcel", "tracking", "courier", "delivery", "arrive"],
    "returns": ["return", "exchange", "label", "size", "send back"],
    "account": ["password", "login", "email", "profile", "locked"],
    "billing": ["invoice", "charged", "vat", "payment", "card"],
    "cancel": ["cancel", "terminate", "unsubscribe", "close", "stop"],
}
FILLER = "hi hello i my the a please can you help with order today thanks urgent need it was is".split()
rnd = random.Random(0)


def make_split(n):
    rows = []
    for _ in range(n):
        y = rnd.choices(range(len(INTENTS)), weights=PRIOR)[0]
        words = rnd.choices(FILLER, k=rnd.randint(4, 10)) + rnd.sample(KEYWORDS[INTENTS[y]], 2)
        rnd.shuffle(words)
        rows.append({"text": " ".join(words), "label": y})
    return rows


def build_tokenizer(texts):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(texts, trainers.WordPieceTrainer(vocab_size=400, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))])
    return PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                                   sep_token="[SEP]", mask_token="[MASK]", model_max_length=64)


class InboxDataset(Dataset):
    def __init__(self, rows, tokenizer):
        self.enc = tokenizer([r["text"] for r in rows], truncation=True)
        self.labels = [r["label"] for r in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: v[i] for k, v in self.enc.items()}
        item["labels"] = self.labels[i]
        return item


class WeightedTrainer(Trainer):
    def __init__(self, *args, class_weights=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.class_weights = class_weights

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        loss_fct = nn.NLLLoss(weight=self.class_weights.to(outputs.logits.device))
        loss = loss_fct(outputs.logits, labels)
        return (loss, outputs) if return_outputs else loss


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = logits.argmax(-1)
    recall = [float((preds[labels == c] == c).mean()) for c in range(len(INTENTS))]
    return {"accuracy": float((preds == labels).mean()), "macro_recall": float(np.mean(recall)),
            **{f"recall_{n}": r for n, r in zip(INTENTS, recall)}}


def main():
    torch.manual_seed(0)
    train_rows, val_rows = make_split(4000), make_split(800)
    tokenizer = build_tokenizer([r["text"] for r in train_rows])
    train_ds, val_ds = InboxDataset(train_rows, tokenizer), InboxDataset(val_rows, tokenizer)

    counts = np.bincount([r["label"] for r in train_rows], minlength=len(INTENTS))
    class_weights = torch.tensor(counts.sum() / (len(INTENTS) * counts), dtype=torch.float32)
    print("class counts", dict(zip(INTENTS, counts.tolist())), "weights", [round(w, 2) for w in class_weights.tolist()])

    config = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=256, max_position_embeddings=64, num_labels=len(INTENTS))
    model = BertForSequenceClassification(config)

    args = TrainingArguments(
        output_dir=os.environ.get("OUT_DIR", "runs/intent-router"),
        per_device_train_batch_size=32,
        per_device_eval_batch_size=128,
        learning_rate=3e-4,
        num_train_epochs=4,
        warmup_steps=30,
        eval_strategy="epoch",
        save_strategy="no",
        logging_steps=25,
        report_to="none",
        seed=0,
        disable_tqdm=True,
    )
    trainer = WeightedTrainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                              data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics,
                              class_weights=class_weights)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
