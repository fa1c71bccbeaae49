"""Toxicity classifier on scraped comments: small Transformer encoder + masked mean pooling."""
import random
import re

import torch
import torch.nn as nn
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from torch.utils.data import DataLoader

torch.manual_seed(0)
random.seed(0)

GOOD = "thanks great helpful agree nice interesting useful clear kind".split()
BAD = "idiot stupid hate trash dumb worst pathetic loser moron".split()
NEUTRAL = "the a this is post i you it of and to that what why when video article".split()
URL_RE = re.compile(r"https?://\S+")
NON_WORD_RE = re.compile(r"[^a-z0-9' ]+")


def scrape_comments(n):
    out = []
    for i in range(n):
        label = random.randrange(2)
        r = random.random()
        if r < 0.0006:
            text = random.choice(["https://t.co/" + str(i), "🔥🔥🔥", "👍", ":) :)", "http://bit.ly/x" + str(i)])
        else:
            words = [random.choice(NEUTRAL) for _ in range(random.randint(5, 40))]
            for _ in range(2):
                words.insert(random.randrange(len(words)), random.choice(BAD if label else GOOD))
            if r < 0.1:
                words.append("https://example.com/p/" + str(i))
            text = " ".join(words)
        out.append((text, label))
    return out


def clean(text):
    text = URL_RE.sub(" ", text.lower())
    return NON_WORD_RE.sub(" ", text).strip()


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]"]))
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    tok.enable_truncation(64)
    return tok


class Encoder(nn.Module):
    def __init__(self, vocab, d=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(64, d)
        layer = nn.TransformerEncoderLayer(d, 4, 128, dropout=0.1, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(d, 2)

    def forward(self, ids, mask):
        pos = torch.arange(ids.shape[1]).unsqueeze(0)
        h = self.enc(self.emb(ids) + self.pos(pos), src_key_padding_mask=~mask.bool())
        m = mask.unsqueeze(-1).float()
        pooled = (h * m).sum(1) / m.sum(1)
        return self.head(pooled)


def main():
    data = [(clean(t), y) for t, y in scrape_comments(12000)]
    tok = build_tokenizer([t for t, _ in data])
    print(f"{len(data)} comments, vocab {tok.get_vocab_size()}")

    def collate(batch):
        enc = tok.encode_batch([t for t, _ in batch])
        ids = torch.tensor([e.ids for e in enc])
        mask = torch.tensor([e.attention_mask for e in enc])
        return ids, mask, torch.tensor([y for _, y in batch])

    loader = DataLoader(data, batch_size=64, shuffle=True, collate_fn=collate)
    model = Encoder(tok.get_vocab_size())
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.01)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(2):
        model.train()
        for step, (ids, mask, y) in enumerate(loader):
            loss = loss_fn(model(ids, mask), y)
            opt.zero_grad()
            loss.backward()
            gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            if step % 25 == 0 or not torch.isfinite(loss):
                print(f"epoch {epoch} step {step:3d} loss {loss.item():.4f} grad_norm {gnorm.item():.3f}")
            if not torch.isfinite(loss):
                bad = sum(not torch.isfinite(p).all() for p in model.parameters())
                print(f"non-finite loss at epoch {epoch} step {step}; {bad} parameter tensors now contain NaN/inf")
                return


if __name__ == "__main__":
    main()
