"""Readability regression: BERT encoder + mean pooling + linear head, trained with the HF Trainer."""
import random
import numpy as np
import torch
import torch.nn as nn
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast, Trainer, TrainingArguments

# shared recipe used for all our encoder fine-tunes
RECIPE = dict(
    learning_rate=3e-4,
    weight_decay=0.01,
    warmup_steps=30,
    lr_scheduler_type="cosine",
    per_device_train_batch_size=16,
    per_device_eval_batch_size=64,
    gradient_checkpointing=True,
    num_train_epochs=3,
    logging_steps=25,
    eval_strategy="epoch",
    save_strategy="no",
    report_to=[],
)

EASY = "the cat sat on a mat and we ran to see it go up the hill with mom".split()
HARD = ("notwithstanding aforementioned jurisdictional considerations heretofore "
        "substantiated epistemological ramifications consequently necessitate").split()


def make_passages(n, seed):
    rng = random.Random(seed)
    texts, scores = [], []
    for _ in range(n):
        difficulty = rng.random()
        words = [rng.choice(HARD if rng.random() < difficulty else EASY) for _ in range(rng.randint(20, 120))]
        texts.append(" ".join(words))
        scores.append(1.0 + 4.0 * difficulty)
    return texts, scores


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


class PassageSet(torch.utils.data.Dataset):
    def __init__(self, texts, scores, tokenizer):
        self.enc = tokenizer(texts, truncation=True, max_length=128, padding="max_length")
        self.scores = scores

    def __len__(self):
        return len(self.scores)

    def __getitem__(self, i):
        return {"input_ids": torch.tensor(self.enc["input_ids"][i]),
                "attention_mask": torch.tensor(self.enc["attention_mask"][i]),
                "labels": torch.tensor(self.scores[i], dtype=torch.float32)}


class MeanPoolRegressor(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.encoder = BertModel(config, add_pooling_layer=False)
        self.dropout = nn.Dropout(0.1)
        self.head = nn.Linear(config.hidden_size, 1)

    def forward(self, input_ids, attention_mask, labels=None):
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        mask = attention_mask.unsqueeze(-1).float()
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        pred = self.head(self.dropout(pooled)).squeeze(-1)
        loss = nn.functional.mse_loss(pred, labels) if labels is not None else None
        return {"loss": loss, "logits": pred}


def compute_metrics(p):
    rmse = float(np.sqrt(((p.predictions - p.label_ids) ** 2).mean()))
    return {"rmse": rmse}


def main():
    torch.manual_seed(0)
    train_texts, train_y = make_passages(2000, seed=1)
    val_texts, val_y = make_passages(300, seed=2)
    tokenizer = build_tokenizer(train_texts)
    train_ds = PassageSet(train_texts, train_y, tokenizer)
    val_ds = PassageSet(val_texts, val_y, tokenizer)
    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=96, num_hidden_layers=4,
                        num_attention_heads=4, intermediate_size=192, max_position_embeddings=128,
                        pad_token_id=tokenizer.pad_token_id)
    model = MeanPoolRegressor(config)
    print(f"train {len(train_ds)} val {len(val_ds)} params {sum(p.numel() for p in model.parameters()):,}")

    args = TrainingArguments(output_dir="out/readability", seed=0, **RECIPE)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                      compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
