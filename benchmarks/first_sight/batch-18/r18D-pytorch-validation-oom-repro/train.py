import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

# ---- synthetic token tagging task (e.g. NER-like BIO tags) ---------------------
VOCAB, N_TAGS, SEQ = 5000, 9, 128


def make_split(n):
    x = torch.randint(1, VOCAB, (n, SEQ))
    y = (x % N_TAGS)                       # tag is a deterministic function of the token
    y[:, 1:] = torch.where(x[:, :-1] % 7 == 0, (y[:, 1:] + 1) % N_TAGS, y[:, 1:])  # plus context
    return TensorDataset(x, y)


train_dl = DataLoader(make_split(768), batch_size=32, shuffle=True)
val_dl = DataLoader(make_split(1024), batch_size=64)


class Tagger(nn.Module):
    def __init__(self, d=128, layers=2):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, d)
        self.pos = nn.Parameter(torch.zeros(1, SEQ, d))
        enc_layer = nn.TransformerEncoderLayer(d, nhead=4, dim_feedforward=1024,
                                               dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc_layer, layers)
        self.out = nn.Linear(d, N_TAGS)

    def forward(self, x):
        return self.out(self.encoder(self.emb(x) + self.pos))


def evaluate(model):
    model.eval()
    all_logits, all_labels = [], []
    for x, y in val_dl:
        all_logits.append(model(x))
        all_labels.append(y)
    logits = torch.cat(all_logits)
    labels = torch.cat(all_labels)
    loss = F.cross_entropy(logits.reshape(-1, N_TAGS), labels.reshape(-1)).item()
    acc = (logits.argmax(-1) == labels).float().mean().item()
    model.train()
    return loss, acc


model = Tagger()
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
print(f"torch {torch.__version__} | params {sum(p.numel() for p in model.parameters())/1e6:.2f}M "
      f"| train batches {len(train_dl)} | val batches {len(val_dl)}", flush=True)
t0 = time.time()
for epoch in range(2):
    for step, (x, y) in enumerate(train_dl):
        logits = model(x)
        loss = F.cross_entropy(logits.reshape(-1, N_TAGS), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 8 == 0:
            print(f"epoch {epoch} step {step:3d} | loss {loss.item():.4f} | {time.time()-t0:.1f}s", flush=True)
    print(f"epoch {epoch} | running validation ...", flush=True)
    val_loss, val_acc = evaluate(model)
    print(f"epoch {epoch} | val_loss {val_loss:.4f} | val_token_acc {val_acc:.4f}", flush=True)
