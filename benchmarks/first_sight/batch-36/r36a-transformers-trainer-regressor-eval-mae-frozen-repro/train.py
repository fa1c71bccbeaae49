"""Predict the support-quality score (1.0-5.0, mean of 3 graders) of agent replies.

Small BERT regressor trained with the HF Trainer.
"""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)

GOOD = "apologize happy refund resolved thanks quickly glad sorry replacement confirmed".split()
BAD = "policy cannot unfortunately wait later impossible no denied ticket closed".split()
FILLER = ("your order the we have and this it will be for you a please of on to our "
          "team account update shipping item").split()


def make_replies(n):
    rows = []
    for _ in range(n):
        quality = random.uniform(1.0, 5.0)
        words = random.choices(FILLER, k=random.randint(10, 24))
        n_good = int(round((quality - 1) * 1.5 + random.gauss(0, 0.7)))
        n_bad = int(round((5 - quality) * 1.5 + random.gauss(0, 0.7)))
        for _ in range(max(n_good, 0)):
            words.insert(random.randrange(len(words)), random.choice(GOOD))
        for _ in range(max(n_bad, 0)):
            words.insert(random.randrange(len(words)), random.choice(BAD))
        graders = np.clip(quality + np.random.normal(0, 0.3, 3), 1, 5)
        rows.append((" ".join(words), float(np.round(graders.mean(), 2))))
    return rows


train_rows, eval_rows = make_replies(4000), make_replies(600)

raw = Tokenizer(models.WordLevel(unk_token="[UNK]"))
raw.pre_tokenizer = pre_tokenizers.Whitespace()
raw.train_from_iterator((t for t, _ in train_rows),
                        trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=raw, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]", model_max_length=64)


class Replies(torch.utils.data.Dataset):
    def __init__(self, rows):
        self.enc = tokenizer([t for t, _ in rows], truncation=True)
        self.scores = [s for _, s in rows]

    def __len__(self):
        return len(self.scores)

    def __getitem__(self, i):
        return {"input_ids": self.enc["input_ids"][i],
                "attention_mask": self.enc["attention_mask"][i],
                "labels": self.scores[i]}


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = np.argmax(logits, axis=-1)
    err = preds - labels
    return {"mae": float(np.abs(err).mean()),
            "rmse": float(np.sqrt((err ** 2).mean())),
            "within_0.5": float((np.abs(err) <= 0.5).mean())}


config = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=256, max_position_embeddings=64, num_labels=1,
                    pad_token_id=tokenizer.pad_token_id)
model = BertForSequenceClassification(config)

args = TrainingArguments(
    output_dir="reply_quality_bert",
    num_train_epochs=4,
    per_device_train_batch_size=32,
    per_device_eval_batch_size=128,
    learning_rate=5e-4,
    warmup_steps=30,
    eval_strategy="epoch",
    save_strategy="no",
    logging_strategy="epoch",
    report_to=[],
    use_cpu=True,
    disable_tqdm=True,
    seed=0,
)
trainer = Trainer(model=model, args=args, train_dataset=Replies(train_rows), eval_dataset=Replies(eval_rows),
                  data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
trainer.train()
print("final:", trainer.evaluate())
