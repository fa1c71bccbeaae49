"""Fine-tune a small BERT classifier on review snippets with on-the-fly tokenization.

Tokenizing inside the collator keeps the dataset as raw strings, so we can change
max_length / truncation without re-processing anything.
"""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import (
    BertConfig,
    BertForSequenceClassification,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
    set_seed,
)

set_seed(42)
rng = random.Random(42)

POS = ["great", "excellent", "loved", "fantastic", "superb", "wonderful", "solid", "enjoyable"]
NEG = ["awful", "terrible", "boring", "broken", "disappointing", "bad", "refund", "waste"]
FILLER = ["the", "product", "was", "really", "and", "it", "shipping", "quality", "honestly",
          "service", "price", "i", "this", "very", "overall", "item"]


def make_review():
    label = rng.randint(0, 1)
    words = [rng.choice(FILLER) for _ in range(rng.randint(6, 20))]
    for _ in range(rng.randint(1, 3)):
        words.insert(rng.randrange(len(words)), rng.choice(POS if label else NEG))
    return {"text": " ".join(words), "label": label}


train_rows = [make_review() for _ in range(3000)]
eval_rows = [make_review() for _ in range(500)]

# ---- tokenizer trained on the training split ----
wp = Tokenizer(models.WordPiece(unk_token="[UNK]"))
wp.normalizer = normalizers.BertNormalizer(lowercase=True)
wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
wp.train_from_iterator(
    (r["text"] for r in train_rows),
    trainers.WordPieceTrainer(vocab_size=300, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]),
)
tokenizer = PreTrainedTokenizerFast(
    tokenizer_object=wp, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
    sep_token="[SEP]", mask_token="[MASK]", model_max_length=64,
)


class ReviewDataset(torch.utils.data.Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, idx):
        return self.rows[idx]


class TokenizeCollator:
    def __init__(self, tokenizer, max_length=64):
        self.tokenizer = tokenizer
        self.max_length = max_length

    def __call__(self, features):
        texts = [f["text"] for f in features]
        batch = self.tokenizer(texts, padding=True, truncation=True,
                               max_length=self.max_length, return_tensors="pt")
        batch["labels"] = torch.tensor([f["label"] for f in features], dtype=torch.long)
        return batch


config = BertConfig(
    vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2,
    num_attention_heads=2, intermediate_size=128, max_position_embeddings=64, num_labels=2,
)
model = BertForSequenceClassification(config)


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    return {"accuracy": float((np.argmax(logits, -1) == labels).mean())}


args = TrainingArguments(
    output_dir="review-clf",
    per_device_train_batch_size=32,
    per_device_eval_batch_size=64,
    num_train_epochs=2,
    learning_rate=1e-3,
    eval_strategy="epoch",
    save_strategy="no",
    logging_steps=20,
    report_to="none",
    use_cpu=True,
    disable_tqdm=True,
)

trainer = Trainer(
    model=model,
    args=args,
    train_dataset=ReviewDataset(train_rows),
    eval_dataset=ReviewDataset(eval_rows),
    data_collator=TokenizeCollator(tokenizer),
    compute_metrics=compute_metrics,
)
print(f"train={len(train_rows)} eval={len(eval_rows)} vocab={tokenizer.vocab_size}")
trainer.train()
print(trainer.evaluate())
