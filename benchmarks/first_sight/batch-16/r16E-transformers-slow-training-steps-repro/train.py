import os
import time
import random

import torch
from torch.utils.data import DataLoader
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (AutoTokenizer, BertConfig, BertForSequenceClassification,
                          PreTrainedTokenizerFast, get_linear_schedule_with_warmup)

TOKENIZER_DIR = "tokenizer"
BATCH_SIZE = 16
MAX_STEPS = 10
LOG_EVERY = 2

POS = ["great", "excellent", "love", "fantastic", "wonderful", "best", "amazing", "perfect"]
NEG = ["terrible", "awful", "hate", "worst", "broken", "poor", "boring", "refund"]
FILLER = ["the", "product", "was", "really", "and", "i", "it", "this", "delivery", "price",
          "quality", "would", "buy", "again", "not", "very", "service", "box", "arrived", "day"]


def make_reviews(n, seed=0):
    rng = random.Random(seed)
    texts, labels = [], []
    for _ in range(n):
        label = rng.randint(0, 1)
        words = [rng.choice(FILLER) for _ in range(rng.randint(8, 24))]
        for _ in range(rng.randint(1, 3)):
            words.insert(rng.randint(0, len(words)), rng.choice(POS if label else NEG))
        texts.append(" ".join(words))
        labels.append(label)
    return texts, labels


def build_tokenizer():
    if os.path.isdir(TOKENIZER_DIR):
        return
    vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
    for w in POS + NEG + FILLER:
        vocab.setdefault(w, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]",
                                   cls_token="[CLS]", sep_token="[SEP]", model_max_length=512)
    fast.save_pretrained(TOKENIZER_DIR)


def main():
    torch.manual_seed(0)
    build_tokenizer()
    tokenizer = AutoTokenizer.from_pretrained(TOKENIZER_DIR)

    texts, labels = make_reviews(4000)
    enc = tokenizer(texts, padding="max_length", truncation=True, return_tensors="pt")
    dataset = [
        {"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i],
         "labels": torch.tensor(labels[i])}
        for i in range(len(texts))
    ]
    loader = DataLoader(dataset, batch_size=BATCH_SIZE, shuffle=True)

    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=256, num_hidden_layers=4,
                        num_attention_heads=4, intermediate_size=1024, num_labels=2)
    model = BertForSequenceClassification(config)
    print(f"torch {torch.__version__} | params {sum(p.numel() for p in model.parameters()) / 1e6:.1f}M | "
          f"{len(dataset)} reviews | batch {BATCH_SIZE} | threads {torch.get_num_threads()}")

    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.01)
    scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=2, num_training_steps=MAX_STEPS)

    model.train()
    step = 0
    t0 = time.time()
    while step < MAX_STEPS:
        for batch in loader:
            out = model(**batch)
            out.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            step += 1
            if step % LOG_EVERY == 0:
                elapsed = time.time() - t0
                print(f"step {step:3d} | loss {out.loss.item():.4f} | {elapsed / step:.2f} s/it | "
                      f"{step * BATCH_SIZE / elapsed:.1f} samples/s", flush=True)
            if step >= MAX_STEPS:
                break
    print(f"finished {step} steps in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
