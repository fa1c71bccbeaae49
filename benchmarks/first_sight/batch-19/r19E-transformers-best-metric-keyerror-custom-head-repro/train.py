"""Predict a 1-5 star rating (as a regression target) from short review text.

Custom head on top of a small BERT encoder built from a config, trained with the HF Trainer;
keeps the checkpoint with the lowest validation RMSE.
"""
import random

import numpy as np
import torch
import torch.nn as nn
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import (
    AutoModel,
    BertConfig,
    DataCollatorWithPadding,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
    set_seed,
)

set_seed(3)
rng = random.Random(3)
WORDS = {1: ["awful", "broken", "refund"], 2: ["poor", "meh", "flimsy"], 3: ["okay", "average", "fine"],
         4: ["good", "nice", "solid"], 5: ["perfect", "amazing", "love"]}
FILL = ["the", "item", "arrived", "and", "it", "is", "quite", "for", "price", "really", "seller", "box"]


def make_review():
    stars = rng.randint(1, 5)
    words = [rng.choice(FILL) for _ in range(rng.randint(5, 14))]
    for _ in range(2):
        words.insert(rng.randrange(len(words)), rng.choice(WORDS[stars]))
    return " ".join(words), float(stars)


train_raw = [make_review() for _ in range(2400)]
val_raw = [make_review() for _ in range(300)]

wl = Tokenizer(models.WordLevel(unk_token="[UNK]"))
wl.normalizer = normalizers.Lowercase()
wl.pre_tokenizer = pre_tokenizers.Whitespace()
wl.train_from_iterator((t for t, _ in train_raw),
                       trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wl, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]", model_max_length=48)


def encode(rows):
    out = []
    for text, stars in rows:
        enc = tokenizer(text, truncation=True)
        enc["targets"] = (stars - 3.0) / 2.0          # scale to [-1, 1]
        out.append(dict(enc))
    return out


class RatingRegressor(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.encoder = AutoModel.from_config(config)
        self.head = nn.Sequential(nn.Dropout(0.1), nn.Linear(config.hidden_size, 1))

    def forward(self, input_ids, attention_mask=None, token_type_ids=None, targets=None):
        h = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        mask = attention_mask.unsqueeze(-1).float()
        pooled = (h * mask).sum(1) / mask.sum(1)
        pred = self.head(pooled).squeeze(-1)
        loss = nn.functional.mse_loss(pred, targets.float()) if targets is not None else None
        return {"loss": loss, "predictions": pred}


def compute_metrics(p):
    preds = p.predictions * 2.0 + 3.0
    gold = p.label_ids * 2.0 + 3.0
    return {"rmse": float(np.sqrt(np.mean((preds - gold) ** 2))),
            "within_half_star": float(np.mean(np.abs(preds - gold) < 0.5))}


config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                    intermediate_size=128, max_position_embeddings=48)
model = RatingRegressor(config)

args = TrainingArguments(
    output_dir="rating-ckpt",
    per_device_train_batch_size=32,
    per_device_eval_batch_size=64,
    num_train_epochs=5,
    learning_rate=1e-3,
    warmup_steps=20,
    eval_strategy="epoch",
    save_strategy="epoch",
    save_total_limit=1,
    load_best_model_at_end=True,
    metric_for_best_model="rmse",
    greater_is_better=False,
    logging_steps=25,
    report_to="none",
    use_cpu=True,
    disable_tqdm=True,
)
trainer = Trainer(model=model, args=args, train_dataset=encode(train_raw), eval_dataset=encode(val_raw),
                  data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
trainer.train()
print("best checkpoint:", trainer.state.best_model_checkpoint)
print(trainer.evaluate())
