"""Character-level language model for generating short product-review snippets.
Decoder-only model built from nn.TransformerEncoder layers (GPT-style), trained
with next-character prediction and sampled autoregressively."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)

SUBJ = ["the battery", "this charger", "the screen", "my order", "the case", "this cable",
        "the speaker", "the keyboard"]
VERB = ["works", "arrived", "stopped working", "feels", "looks", "broke", "charges"]
ADV = ["great", "fine", "too slowly", "after a week", "really cheap", "perfectly", "on time",
       "much better than expected"]
END = [".", "!", ". would buy again.", ". not happy.", ". five stars!"]


def review():
    return f"{random.choice(SUBJ)} {random.choice(VERB)} {random.choice(ADV)}{random.choice(END)}\n"


text = "".join(review() for _ in range(3000))
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text])
n = int(0.9 * len(data))
train_data, val_data = data[:n], data[n:]
BLOCK, BATCH = 32, 32


def get_batch(split):
    d = train_data if split == "train" else val_data
    ix = torch.randint(len(d) - BLOCK - 1, (BATCH,))
    x = torch.stack([d[i:i + BLOCK] for i in ix])
    y = torch.stack([d[i + 1:i + BLOCK + 1] for i in ix])
    return x, y


class CharGPT(nn.Module):
    def __init__(self, vocab, d=64, heads=4, layers=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(BLOCK, d)
        layer = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True,
                                           norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, layers)
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, idx):
        T = idx.size(1)
        h = self.tok(idx) + self.pos(torch.arange(T, device=idx.device))
        h = self.blocks(h)
        return self.head(self.ln(h))

    @torch.no_grad()
    def generate(self, idx, n_new, temperature=0.8):
        for _ in range(n_new):
            logits = self(idx[:, -BLOCK:])[:, -1, :] / temperature
            nxt = torch.multinomial(F.softmax(logits, -1), 1)
            idx = torch.cat([idx, nxt], 1)
        return idx


model = CharGPT(len(chars))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
print(f"corpus {len(text)} chars, vocab {len(chars)}, params "
      f"{sum(p.numel() for p in model.parameters())}")

for step in range(401):
    model.train()
    x, y = get_batch("train")
    logits = model(x)
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        model.eval()
        with torch.no_grad():
            xv, yv = get_batch("val")
            lv = model(xv)
            vloss = F.cross_entropy(lv.reshape(-1, lv.size(-1)), yv.reshape(-1))
        print(f"step {step:4d} train_loss {loss.item():.4f} val_loss {vloss.item():.4f}")

model.eval()
for prompt in ["the battery ", "this cable "]:
    ctx = torch.tensor([[stoi[c] for c in prompt]])
    out = model.generate(ctx, 60)[0].tolist()
    print(f"--- sample from {prompt!r}:\n" + "".join(itos[i] for i in out))
