"""Product-review sentiment: 2-layer BERT whose word embeddings are initialised from our
in-house 300-d word vectors (word2vec trained on the review corpus), trained with HF Trainer.
"""
import os
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments)

POS = "great love perfect excellent happy recommend fast sturdy comfortable works".split()
NEG = "broken terrible refund waste poor slow cheap disappointed returned faulty".split()
NEUTRAL = "the this it i a was and very product item arrived my for with after".split()
VEC_PATH = "artifacts/review_w2v_300d.npy"

MODEL_CFG = dict(num_hidden_layers=2, num_attention_heads=8, intermediate_size=512,
                 max_position_embeddings=64, hidden_dropout_prob=0.1)


def make_reviews(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        y = rng.randint(0, 1)
        words = rng.sample(NEUTRAL, 7) + rng.sample(POS if y else NEG, 2)
        rng.shuffle(words)
        out.append({"text": " ".join(words), "label": y})
    return out


def load_word_vectors(vocab):
    if not os.path.exists(VEC_PATH):  # stand-in for the exported word2vec matrix
        os.makedirs("artifacts", exist_ok=True)
        np.save(VEC_PATH, np.random.default_rng(0).normal(0, 0.1, (len(vocab), 300)).astype(np.float32))
    return torch.from_numpy(np.load(VEC_PATH))


class Encoded(torch.utils.data.Dataset):
    def __init__(self, rows, tok):
        self.enc = tok([r["text"] for r in rows], padding="max_length", max_length=16, truncation=True)
        self.labels = [r["label"] for r in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: torch.tensor(v[i]) for k, v in self.enc.items()}
        item["labels"] = torch.tensor(self.labels[i])
        return item


def main():
    vocab = {w: i for i, w in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]"] + NEUTRAL + POS + NEG)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]")

    vectors = load_word_vectors(vocab)
    config = BertConfig(vocab_size=len(vocab), hidden_size=vectors.shape[1], num_labels=2, **MODEL_CFG)
    model = BertForSequenceClassification(config)
    with torch.no_grad():
        model.bert.embeddings.word_embeddings.weight.copy_(vectors)
    print(f"model params: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M")

    train_ds = Encoded(make_reviews(4000, 0), tokenizer)
    eval_ds = Encoded(make_reviews(800, 1), tokenizer)

    def compute_metrics(p):
        return {"accuracy": float((p.predictions.argmax(-1) == p.label_ids).mean())}

    args = TrainingArguments(output_dir="runs/sentiment", num_train_epochs=2,
                             per_device_train_batch_size=32, per_device_eval_batch_size=128,
                             learning_rate=3e-4, eval_strategy="epoch", save_strategy="no",
                             logging_steps=25, report_to="none", use_cpu=True)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                      compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
