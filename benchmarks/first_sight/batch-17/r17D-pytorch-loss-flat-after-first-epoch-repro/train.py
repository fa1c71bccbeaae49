"""Small Transformer encoder for token-sequence classification, plain PyTorch loop + HF LR schedule."""
import math
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from transformers import get_linear_schedule_with_warmup

torch.manual_seed(0)

VOCAB, SEQ, N_CLASSES = 48, 20, 3
D_MODEL, N_HEAD, N_LAYERS = 32, 4, 2
EPOCHS = 8
BATCH = 64
LR = 5e-4
WARMUP_RATIO = 0.1


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(4, VOCAB, (n, SEQ), generator=g)
    pos = torch.arange(SEQ).expand(n, SEQ)
    first5 = torch.where(x == 5, pos, SEQ).min(1).values
    first6 = torch.where(x == 6, pos, SEQ).min(1).values
    y = torch.where(first5 < first6, 0, torch.where(first6 < first5, 1, 2))
    return x, y


class SeqClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D_MODEL)
        self.pos = nn.Parameter(torch.randn(1, SEQ, D_MODEL) * 0.02)
        layer = nn.TransformerEncoderLayer(D_MODEL, N_HEAD, dim_feedforward=4 * D_MODEL, dropout=0.1,
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, N_LAYERS, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(D_MODEL)
        self.head = nn.Linear(D_MODEL, N_CLASSES)

    def forward(self, x):
        h = self.encoder(self.tok(x) * math.sqrt(D_MODEL) + self.pos)
        return self.head(self.norm(h.mean(1)))


@torch.no_grad()
def evaluate(model, loader, crit):
    model.eval()
    loss = correct = n = 0
    for x, y in loader:
        out = model(x)
        loss += crit(out, y).item() * len(y)
        correct += (out.argmax(1) == y).sum().item()
        n += len(y)
    return loss / n, correct / n


def main():
    train_ds = TensorDataset(*make_split(6000, 1))
    val_ds = TensorDataset(*make_split(2000, 2))
    train_dl = DataLoader(train_ds, batch_size=BATCH, shuffle=True, drop_last=True)
    val_dl = DataLoader(val_ds, batch_size=256)
    print(f"train={len(train_ds)} val={len(val_ds)} class_counts={torch.bincount(train_ds.tensors[1]).tolist()}")

    model = SeqClassifier()
    no_decay = [p for n, p in model.named_parameters() if p.ndim < 2]
    decay = [p for n, p in model.named_parameters() if p.ndim >= 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01},
                             {"params": no_decay, "weight_decay": 0.0}], lr=LR)
    num_training_steps = len(train_ds) // BATCH
    scheduler = get_linear_schedule_with_warmup(opt, int(WARMUP_RATIO * num_training_steps), num_training_steps)
    crit = nn.CrossEntropyLoss()

    for epoch in range(EPOCHS):
        model.train()
        t0, tot = time.time(), 0.0
        for x, y in train_dl:
            loss = crit(model(x), y)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            scheduler.step()
            tot += loss.item()
        val_loss, val_acc = evaluate(model, val_dl, crit)
        print(f"epoch {epoch} train_loss {tot / len(train_dl):.4f} val_loss {val_loss:.4f} "
              f"val_acc {val_acc:.4f} ({time.time() - t0:.1f}s)", flush=True)

    torch.save(model.state_dict(), "/tmp/seq_clf.pt")


if __name__ == "__main__":
    main()
