"""Banking-intent classifier: small BERT trained from scratch with the HF Trainer.

The model is tiny on purpose (it has to run on the branch servers, CPU only).
"""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

INTENTS = ["card_lost", "balance", "transfer", "loan_info", "close_account", "change_pin"]
TEMPLATES = {
    "card_lost": ["i lost my {card} card", "my {card} card was stolen yesterday", "cannot find my {card} card"],
    "balance": ["what is my balance", "how much money is on my {acct} account", "show {acct} balance please"],
    "transfer": ["send {amt} euros to my {acct} account", "transfer {amt} to john", "move {amt} to savings"],
    "loan_info": ["what is the interest on a {amt} loan", "can i get a loan of {amt}", "loan rates for {amt}"],
    "close_account": ["i want to close my {acct} account", "please cancel my {acct} account", "terminate {acct} account"],
    "change_pin": ["change the pin of my {card} card", "reset {card} pin", "i forgot the pin for my {card} card"],
}
FILL = {"card": ["debit", "credit", "visa", "gold"], "acct": ["checking", "savings", "joint", "business"],
        "amt": ["50", "200", "1000", "15000", "3500"]}


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.autograd.set_detect_anomaly(True)
    torch.use_deterministic_algorithms(False)


def make_examples(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        label = rng.randrange(len(INTENTS))
        text = rng.choice(TEMPLATES[INTENTS[label]])
        text = text.format(**{k: rng.choice(v) for k, v in FILL.items()})
        if rng.random() < 0.5:
            text = rng.choice(["hi ", "hello, ", "good morning "]) + text
        out.append((text, label))
    return out


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(
        special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


class IntentDataset(Dataset):
    def __init__(self, examples, tokenizer):
        self.enc = tokenizer([t for t, _ in examples], truncation=True, max_length=32)
        self.labels = [y for _, y in examples]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: v[i] for k, v in self.enc.items()}
        item["labels"] = self.labels[i]
        return item


def compute_metrics(p):
    return {"accuracy": float((p.predictions.argmax(-1) == p.label_ids).mean())}


def main():
    seed_everything(42)
    train_ex, val_ex = make_examples(1600, 0), make_examples(300, 1)
    tokenizer = build_tokenizer([t for t, _ in train_ex])
    train_ds, val_ds = IntentDataset(train_ex, tokenizer), IntentDataset(val_ex, tokenizer)

    cfg = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=4,
                     num_attention_heads=2, intermediate_size=256, max_position_embeddings=64,
                     num_labels=len(INTENTS), pad_token_id=tokenizer.pad_token_id)
    model = BertForSequenceClassification(cfg)
    print(f"torch {torch.__version__}, params {model.num_parameters():,}, "
          f"{len(train_ds)} train / {len(val_ds)} val examples")

    args = TrainingArguments(
        output_dir="out-intent",
        num_train_epochs=1,
        per_device_train_batch_size=32,
        per_device_eval_batch_size=64,
        learning_rate=1e-3,
        warmup_steps=5,
        logging_steps=10,
        eval_strategy="epoch",
        save_strategy="no",
        report_to="none",
        disable_tqdm=True,
        seed=42,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                      data_collator=DataCollatorWithPadding(tokenizer),
                      compute_metrics=compute_metrics)
    trainer.train()


if __name__ == "__main__":
    main()
