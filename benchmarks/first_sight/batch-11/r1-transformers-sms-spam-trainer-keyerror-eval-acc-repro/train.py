"""SMS spam filter: tiny DistilBERT trained from scratch, keep the best epoch by accuracy."""
import random

import numpy as np
from torch.utils.data import Dataset
from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
from transformers import (DataCollatorWithPadding, DistilBertConfig, DistilBertForSequenceClassification,
                          EarlyStoppingCallback, PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

set_seed(0)
random.seed(0)

HAM = ["are we still on for lunch", "call me when you get home", "running late sorry", "see you at the gym",
       "can you pick up milk", "happy birthday", "meeting moved to 3pm", "thanks for yesterday"]
SPAM = ["you have won a free prize", "claim your cash reward now", "urgent your account is locked click here",
        "cheap loans approved instantly", "txt WIN to 80082 to claim", "exclusive offer expires today"]


def make_sms(n, seed):
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        spam = rng.random() < 0.3
        text = rng.choice(SPAM if spam else HAM)
        if rng.random() < 0.5:
            text += " " + rng.choice(HAM + SPAM)
        rows.append((text, int(spam)))
    return rows


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]",
                                                       special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


class SmsDataset(Dataset):
    def __init__(self, rows, tokenizer):
        self.enc = tokenizer([t for t, _ in rows], truncation=True, max_length=32)
        self.labels = [y for _, y in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.enc["input_ids"][i], "attention_mask": self.enc["attention_mask"][i],
                "labels": self.labels[i]}


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = np.argmax(logits, axis=-1)
    tp = ((preds == 1) & (labels == 1)).sum()
    fp = ((preds == 1) & (labels == 0)).sum()
    fn = ((preds == 0) & (labels == 1)).sum()
    return {"acc": float((preds == labels).mean()),
            "spam_precision": float(tp / max(tp + fp, 1)),
            "spam_recall": float(tp / max(tp + fn, 1))}


def main():
    train_rows, val_rows = make_sms(2000, seed=1), make_sms(400, seed=2)
    tokenizer = build_tokenizer([t for t, _ in train_rows])
    config = DistilBertConfig(vocab_size=tokenizer.vocab_size, dim=64, n_layers=2, n_heads=4, hidden_dim=128,
                              max_position_embeddings=64, num_labels=2, pad_token_id=tokenizer.pad_token_id)
    model = DistilBertForSequenceClassification(config)

    args = TrainingArguments(
        output_dir="sms-spam",
        num_train_epochs=5,
        per_device_train_batch_size=32,
        per_device_eval_batch_size=128,
        learning_rate=1e-3,
        eval_strategy="epoch",
        save_strategy="epoch",
        save_total_limit=2,
        load_best_model_at_end=True,
        metric_for_best_model="acc",
        label_names=["label"],
        greater_is_better=True,
        logging_steps=20,
        report_to="none",
        disable_tqdm=True,
    )
    trainer = Trainer(model=model, args=args, train_dataset=SmsDataset(train_rows, tokenizer),
                      eval_dataset=SmsDataset(val_rows, tokenizer), data_collator=DataCollatorWithPadding(tokenizer),
                      compute_metrics=compute_metrics, callbacks=[EarlyStoppingCallback(early_stopping_patience=2)])
    trainer.train()
    trainer.save_model("sms-spam/best")
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
