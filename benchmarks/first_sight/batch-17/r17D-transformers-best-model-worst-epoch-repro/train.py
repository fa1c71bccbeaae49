"""Review-score regression (1-5 stars) with a small BERT and the HF Trainer, keeping the best epoch."""
import random
import shutil

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

random.seed(1)
torch.manual_seed(1)
OUT = "/tmp/review_reg"

POS = "great excellent love perfect amazing fantastic solid recommend".split()
NEG = "terrible broken awful waste refund disappointed cheap useless".split()
NEU = "the it was product item arrived box color size shipping okay average".split()


def make_reviews(n):
    rows = []
    for _ in range(n):
        stars = random.randint(1, 5)
        k = random.randint(6, 18)
        p_pos = (stars - 1) / 4
        words = []
        for _ in range(k):
            r = random.random()
            if r < 0.5:
                words.append(random.choice(POS) if random.random() < p_pos else random.choice(NEG))
            else:
                words.append(random.choice(NEU))
        rows.append({"text": " ".join(words), "label": float(stars)})
    return rows


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


class ReviewDataset(torch.utils.data.Dataset):
    def __init__(self, rows, tok):
        self.enc = tok([r["text"] for r in rows], truncation=True, max_length=64)
        self.labels = [r["label"] for r in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.enc["input_ids"][i], "attention_mask": self.enc["attention_mask"][i],
                "labels": self.labels[i]}


def compute_metrics(pred):
    p = pred.predictions.reshape(-1)
    y = pred.label_ids.reshape(-1)
    return {"rmse": float(np.sqrt(((p - y) ** 2).mean())), "mae": float(np.abs(p - y).mean())}


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    train_rows, val_rows = make_reviews(1500), make_reviews(300)
    tok = build_tokenizer([r["text"] for r in train_rows])
    config = BertConfig(vocab_size=tok.vocab_size, hidden_size=96, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=256, max_position_embeddings=64, num_labels=1,
                        problem_type="regression", pad_token_id=tok.pad_token_id)
    model = BertForSequenceClassification(config)

    args = TrainingArguments(
        output_dir=OUT, num_train_epochs=5, per_device_train_batch_size=32, per_device_eval_batch_size=128,
        learning_rate=3e-4, warmup_steps=10, weight_decay=0.01,
        eval_strategy="epoch", save_strategy="epoch", save_total_limit=2,
        load_best_model_at_end=True, metric_for_best_model="rmse",
        logging_strategy="epoch", report_to="none", use_cpu=True, disable_tqdm=True, seed=1,
    )
    trainer = Trainer(model=model, args=args, train_dataset=ReviewDataset(train_rows, tok),
                      eval_dataset=ReviewDataset(val_rows, tok), data_collator=DataCollatorWithPadding(tok),
                      compute_metrics=compute_metrics)
    trainer.train()
    print("best checkpoint:", trainer.state.best_model_checkpoint)
    final = trainer.evaluate()
    print(f"final model on val: rmse {final['eval_rmse']:.4f} mae {final['eval_mae']:.4f}")
    trainer.save_model(f"{OUT}/final")


if __name__ == "__main__":
    main()
