"""Two-stage transfer: (1) adapt a small BERT on 3-way review sentiment, (2) re-use that
encoder for the 5-level ticket-urgency classifier."""
import os
import random
import time

import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from torch.utils.data import DataLoader
from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

OUT = os.environ.get("OUT_DIR", "runs")
STAGE1_DIR = os.path.join(OUT, "stage1-sentiment")
STAGE2_DIR = os.path.join(OUT, "stage2-urgency")
SENTIMENT = ["negative", "neutral", "positive"]
URGENCY = ["trivial", "low", "normal", "high", "blocker"]
rnd = random.Random(0)
torch.manual_seed(0)

WORDS = {
    "negative": ["awful", "broken", "refund", "angry", "worst", "slow"],
    "neutral": ["okay", "arrived", "average", "fine", "normal", "package"],
    "positive": ["great", "love", "fast", "perfect", "thanks", "excellent"],
    "trivial": ["typo", "colour", "wording", "cosmetic"], "low": ["question", "someday", "minor", "request"],
    "normal": ["bug", "error", "wrong", "issue"], "high": ["cannot", "failing", "customers", "urgent"],
    "blocker": ["outage", "down", "production", "everyone"],
}
FILLER = ["the", "app", "order", "my", "is", "was", "we", "it", "and", "today", "again", "please", "team"]


def make_texts(labels, n):
    data = []
    for _ in range(n):
        y = rnd.randrange(len(labels))
        words = rnd.choices(FILLER, k=rnd.randint(5, 12)) + rnd.choices(WORDS[labels[y]], k=2)
        rnd.shuffle(words)
        data.append((" ".join(words), y))
    return data


def build_tokenizer(texts):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(texts, trainers.WordPieceTrainer(vocab_size=500, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))])
    return PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                                   sep_token="[SEP]", mask_token="[MASK]", model_max_length=64)


def loader(tokenizer, data, shuffle):
    def collate(batch):
        enc = tokenizer([t for t, _ in batch], padding=True, truncation=True, return_tensors="pt")
        enc["labels"] = torch.tensor([y for _, y in batch])
        return enc
    return DataLoader(data, batch_size=32, shuffle=shuffle, collate_fn=collate)


def fit(model, train, val, epochs, lr, tag):
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    for ep in range(epochs):
        model.train()
        t0 = time.time()
        for batch in train:
            loss = model(**batch).loss
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        correct = total = 0
        with torch.no_grad():
            for batch in val:
                correct += (model(**batch).logits.argmax(-1) == batch["labels"]).sum().item()
                total += len(batch["labels"])
        print(f"[{tag}] epoch {ep + 1} last_loss {loss.item():.4f} val_acc {correct / total:.3f} ({time.time() - t0:.1f}s)", flush=True)


def main():
    sent_train, sent_val = make_texts(SENTIMENT, 3000), make_texts(SENTIMENT, 600)
    urg_train, urg_val = make_texts(URGENCY, 3000), make_texts(URGENCY, 600)
    tokenizer = build_tokenizer([t for t, _ in sent_train + urg_train])

    # ---- stage 1: sentiment adaptation
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=256, max_position_embeddings=64, num_labels=len(SENTIMENT),
                        id2label=dict(enumerate(SENTIMENT)), label2id={l: i for i, l in enumerate(SENTIMENT)})
    model = BertForSequenceClassification(config)
    fit(model, loader(tokenizer, sent_train, True), loader(tokenizer, sent_val, False), 2, 5e-4, "stage1")
    model.save_pretrained(STAGE1_DIR)
    tokenizer.save_pretrained(STAGE1_DIR)
    print(f"stage 1 saved to {STAGE1_DIR}", flush=True)

    # ---- stage 2: urgency classifier on top of the adapted encoder
    model = BertForSequenceClassification.from_pretrained(
        STAGE1_DIR,
        num_labels=len(URGENCY),
        id2label=dict(enumerate(URGENCY)),
        label2id={l: i for i, l in enumerate(URGENCY)},
    )
    fit(model, loader(tokenizer, urg_train, True), loader(tokenizer, urg_val, False), 3, 3e-4, "stage2")
    model.save_pretrained(STAGE2_DIR)
    print(f"stage 2 saved to {STAGE2_DIR}")


if __name__ == "__main__":
    main()
