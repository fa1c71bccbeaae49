"""Fine-tune a small BERT classifier on review texts; tokenisation happens on the fly in the Dataset."""
import os
import random
import tempfile
import time

import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from torch.utils.data import DataLoader, Dataset
from transformers import (AutoTokenizer, BertConfig, BertForSequenceClassification,
                          DataCollatorWithPadding, PreTrainedTokenizerFast)

TOK_DIR = os.path.join(tempfile.gettempdir(), "review_tokenizer")
MAX_LEN = 128
BATCH_SIZE = 32
NUM_WORKERS = 2
STEPS = 30

POS = ["great", "excellent", "love", "perfect", "fantastic", "recommend", "happy", "works"]
NEG = ["terrible", "broken", "refund", "awful", "disappointed", "waste", "returned", "poor"]
FILL = ["the", "product", "it", "was", "and", "delivery", "price", "quality", "box", "i", "this",
        "after", "days", "use", "battery", "screen", "very", "not", "would", "again"]
_r = random.Random(123)
# product names / model numbers / misspellings seen in the real dump
RARE = ["".join(_r.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(_r.randint(4, 9)))
        for _ in range(40_000)]


def make_reviews(n, seed=0):
    rng = random.Random(seed)
    data = []
    for _ in range(n):
        label = rng.randrange(2)
        words = [rng.choice(FILL) if rng.random() < 0.7 else rng.choice(RARE)
                 for _ in range(rng.randint(30, 120))]
        for _ in range(3):
            words.insert(rng.randrange(len(words)), rng.choice(POS if label else NEG))
        data.append((" ".join(words), label))
    return data


def build_and_save_tokenizer(texts):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(texts, trainers.WordPieceTrainer(
        vocab_size=30000, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", tok.token_to_id("[CLS]")),
                                                 ("[SEP]", tok.token_to_id("[SEP]"))])
    PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]",
                            cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]",
                            model_max_length=MAX_LEN).save_pretrained(TOK_DIR)


class ReviewDataset(Dataset):
    def __init__(self, data, tokenizer_path):
        self.data = data
        self.tokenizer_path = tokenizer_path

    def __len__(self):
        return len(self.data)

    def __getitem__(self, idx):
        text, label = self.data[idx]
        tokenizer = AutoTokenizer.from_pretrained(self.tokenizer_path)
        enc = tokenizer(text, truncation=True, max_length=MAX_LEN)
        enc["labels"] = label
        return enc


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = make_reviews(20_000)
    if not os.path.exists(os.path.join(TOK_DIR, "tokenizer.json")):
        build_and_save_tokenizer([t for t, _ in data])
    tokenizer = AutoTokenizer.from_pretrained(TOK_DIR)
    ds = ReviewDataset(data, TOK_DIR)
    loader = DataLoader(ds, batch_size=BATCH_SIZE, shuffle=True, num_workers=NUM_WORKERS,
                        collate_fn=DataCollatorWithPadding(tokenizer), persistent_workers=True)

    config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=128,
                        max_position_embeddings=MAX_LEN, num_labels=2)
    model = BertForSequenceClassification(config)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    model.train()

    t_data = t_comp = 0.0
    t_last = time.perf_counter()
    win_start, win_samples = time.perf_counter(), 0
    for step, batch in enumerate(loader):
        t_got = time.perf_counter()
        t_data += t_got - t_last
        out = model(**batch)
        out.loss.backward()
        opt.step()
        opt.zero_grad()
        t_last = time.perf_counter()
        t_comp += t_last - t_got
        win_samples += batch["input_ids"].shape[0]
        if (step + 1) % 10 == 0:
            sps = win_samples / (time.perf_counter() - win_start)
            print(f"step {step + 1} loss {out.loss.item():.4f} {sps:.1f} samples/s "
                  f"(data wait {t_data:.1f}s, compute {t_comp:.1f}s so far)", flush=True)
            win_start, win_samples = time.perf_counter(), 0
        if step + 1 == STEPS:
            break
    total = t_data + t_comp
    print(f"done {STEPS} steps: {STEPS * BATCH_SIZE / total:.1f} samples/s overall, "
          f"{100 * t_data / total:.0f}% of time waiting for data")


if __name__ == "__main__":
    main()
