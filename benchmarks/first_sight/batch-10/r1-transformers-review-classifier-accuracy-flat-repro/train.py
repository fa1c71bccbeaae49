"""Fine-tune a small BERT-style encoder on our product-review sentiment data (pos/neg).

Tokenizer is a word-level vocab built from the training text; model is a small
BertForSequenceClassification trained from scratch with the HF Trainer.
"""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (BertConfig, BertForSequenceClassification,
                          DataCollatorWithPadding, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments)

torch.set_num_threads(2)
random.seed(0)
np.random.seed(0)
torch.manual_seed(0)

POS = ["great", "excellent", "love", "perfect", "amazing", "sturdy", "recommend", "happy"]
NEG = ["broken", "terrible", "refund", "awful", "cheap", "disappointed", "useless", "returned"]
FILL = ["the", "this", "product", "it", "was", "and", "i", "after", "a", "week", "box",
        "item", "quality", "price", "shipping", "my", "son", "kitchen", "really", "very"]
LABELS = ["negative", "positive"]


def make_review(label):
    words = random.choices(FILL, k=random.randint(5, 12))
    key = POS if label == 1 else NEG
    for w in random.choices(key, k=random.randint(1, 3)):
        words.insert(random.randrange(len(words) + 1), w)
    return " ".join(words)


def make_split(n):
    rows = []
    for _ in range(n):
        y = random.randint(0, 1)
        rows.append({"text": make_review(y), "label": y})
    return rows


train_rows, val_rows = make_split(1600), make_split(400)

# ---- tokenizer -------------------------------------------------------------
vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
for w in sorted(set(POS + NEG + FILL)):
    vocab[w] = len(vocab)
tk = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
tk.pre_tokenizer = pre_tokenizers.Whitespace()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tk, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]")


class ReviewDataset(torch.utils.data.Dataset):
    def __init__(self, rows):
        self.enc = [tokenizer("[CLS] " + r["text"] + " [SEP]", truncation=True, max_length=32)
                    for r in rows]
        self.labels = [r["label"] for r in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: v for k, v in self.enc[i].items() if k != "token_type_ids"}
        item["labels"] = self.labels[i]
        return item


train_ds, val_ds = ReviewDataset(train_rows), ReviewDataset(val_rows)

# ---- model -----------------------------------------------------------------
config = BertConfig(
    vocab_size=len(vocab), hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
    intermediate_size=128, max_position_embeddings=64, pad_token_id=0,
    num_labels=1,
)
model = BertForSequenceClassification(config)


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = np.argmax(logits, axis=-1)
    return {"accuracy": float((preds == labels).mean())}


args = TrainingArguments(
    output_dir="/tmp/r1_review_clf",
    per_device_train_batch_size=32,
    per_device_eval_batch_size=64,
    num_train_epochs=4,
    learning_rate=5e-4,
    eval_strategy="epoch",
    save_strategy="no",
    logging_steps=25,
    report_to=[],
    use_cpu=True,
    disable_tqdm=True,
    seed=0,
)

trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                  data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
trainer.train()
print(trainer.evaluate())

# quick sanity check on a few hand-written reviews
samples = ["i love this product it is really great",
           "terrible quality it was broken after a week and i returned it",
           "amazing price and sturdy box i recommend it",
           "awful and useless i want a refund"]
model.eval()
with torch.no_grad():
    enc = tokenizer(["[CLS] " + s + " [SEP]" for s in samples], padding=True, return_tensors="pt")
    enc.pop("token_type_ids", None)
    out = model(**enc).logits
for s, row in zip(samples, out):
    pred = int(row.argmax())
    print(f"{LABELS[pred]:>8}  {s}")
