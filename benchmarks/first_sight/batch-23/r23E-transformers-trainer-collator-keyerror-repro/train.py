"""Sentiment classifier: small BERT (from config) + WordPiece tokenizer trained on our corpus.

Tokenisation happens in the collator so that each batch is padded dynamically.
"""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (
    BertConfig,
    BertForSequenceClassification,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
    set_seed,
)

set_seed(13)
rng = random.Random(13)

POS = ["great", "excellent", "lovely", "fantastic", "superb", "pleasant", "brilliant", "solid"]
NEG = ["awful", "terrible", "boring", "broken", "dreadful", "poor", "useless", "disappointing"]
FILL = ["the", "product", "was", "really", "quite", "and", "service", "delivery", "overall",
        "i", "found", "it", "very", "honestly", "this", "item", "price", "support"]


def review():
    label = rng.randint(0, 1)
    words = [rng.choice(FILL) for _ in range(rng.randint(6, 30))]
    for _ in range(rng.randint(1, 3)):
        words.insert(rng.randint(0, len(words)), rng.choice(POS if label else NEG))
    return {"text": " ".join(words), "label": label}


rows = [review() for _ in range(3000)]
train_rows, eval_rows = rows[:2500], rows[2500:]

# ---- tokenizer -----------------------------------------------------------
wp = Tokenizer(models.WordPiece(unk_token="[UNK]"))
wp.normalizer = normalizers.BertNormalizer(lowercase=True)
wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
wp.train_from_iterator((r["text"] for r in train_rows),
                       trainers.WordPieceTrainer(vocab_size=500,
                                                 special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
wp.post_processor = processors.BertProcessing(("[SEP]", wp.token_to_id("[SEP]")),
                                              ("[CLS]", wp.token_to_id("[CLS]")))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wp, unk_token="[UNK]", pad_token="[PAD]",
                                    cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")


class ReviewDataset(torch.utils.data.Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def collate(features):
    texts = [f["text"] for f in features]
    batch = tokenizer(texts, padding=True, truncation=True, max_length=64, return_tensors="pt")
    batch["labels"] = torch.tensor([f["label"] for f in features], dtype=torch.long)
    return batch


def compute_metrics(p):
    preds = np.argmax(p.predictions, axis=-1)
    return {"accuracy": float((preds == p.label_ids).mean())}


config = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2,
                    num_attention_heads=4, intermediate_size=256, max_position_embeddings=128,
                    num_labels=2, pad_token_id=tokenizer.pad_token_id)
model = BertForSequenceClassification(config)

args = TrainingArguments(
    output_dir="/tmp/s44/batch-23/r23E-transformers-trainer-collator-keyerror-repro/out",
    per_device_train_batch_size=32,
    per_device_eval_batch_size=64,
    num_train_epochs=3,
    learning_rate=5e-4,
    weight_decay=0.01,
    logging_steps=40,
    eval_strategy="epoch",
    save_strategy="no",
    report_to="none",
    use_cpu=True,
    disable_tqdm=True,
)

trainer = Trainer(
    model=model,
    args=args,
    train_dataset=ReviewDataset(train_rows),
    eval_dataset=ReviewDataset(eval_rows),
    data_collator=collate,
    compute_metrics=compute_metrics,
)
trainer.train()
print(trainer.evaluate())
