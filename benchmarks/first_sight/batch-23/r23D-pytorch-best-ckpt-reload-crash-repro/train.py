"""GRU intent classifier on tokenised support tickets. Saves the best checkpoint by macro-F1,
then reloads it for the final test-set report."""
import os
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

VOCAB, SEQ, N_CLS = 2000, 32, 5
CKPT_DIR = "checkpoints"


def synth_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, N_CLS, (n,), generator=g)
    x = torch.randint(5, VOCAB, (n, SEQ), generator=g)
    # each intent has a few keyword tokens sprinkled in at random positions
    for c in range(N_CLS):
        idx = (y == c).nonzero().squeeze(1)
        pos = torch.randint(0, SEQ, (len(idx), 3), generator=g)
        kw = torch.randint(100 * c + 5, 100 * c + 25, (len(idx), 3), generator=g)
        x[idx.unsqueeze(1), pos] = kw
    return TensorDataset(x, y)


class IntentGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32, padding_idx=0)
        self.gru = nn.GRU(32, 48, batch_first=True, bidirectional=True)
        self.head = nn.Linear(96, N_CLS)

    def forward(self, x):
        out, _ = self.gru(self.emb(x))
        return self.head(out.max(dim=1).values)


def macro_f1(y_true, y_pred):
    f1s = []
    for c in range(N_CLS):
        tp = np.sum((y_pred == c) & (y_true == c))
        fp = np.sum((y_pred == c) & (y_true != c))
        fn = np.sum((y_pred != c) & (y_true == c))
        f1s.append(2 * tp / max(2 * tp + fp + fn, 1))
    return np.mean(f1s)


def predict(model, dl):
    model.eval()
    ys, ps = [], []
    with torch.no_grad():
        for x, y in dl:
            ps.append(model(x).argmax(1).numpy())
            ys.append(y.numpy())
    return np.concatenate(ys), np.concatenate(ps)


def main():
    torch.manual_seed(0)
    os.makedirs(CKPT_DIR, exist_ok=True)
    train_dl = DataLoader(synth_split(3000, 1), batch_size=64, shuffle=True)
    val_dl = DataLoader(synth_split(1000, 2), batch_size=256)
    test_dl = DataLoader(synth_split(1000, 3), batch_size=256)

    model = IntentGRU()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=3)
    best_f1, best_path = -1.0, os.path.join(CKPT_DIR, "best.pt")

    for epoch in range(3):
        model.train()
        t0, tot = time.time(), 0.0
        for x, y in train_dl:
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            tot += loss.item()
        sched.step()
        f1 = macro_f1(*predict(model, val_dl))
        print(f"epoch {epoch} loss {tot / len(train_dl):.4f} val_macro_f1 {f1:.4f} ({time.time() - t0:.1f}s)")
        if f1 > best_f1:
            best_f1 = f1
            torch.save({"epoch": epoch, "model": model.state_dict(), "optimizer": opt.state_dict(),
                        "scheduler": sched.state_dict(), "val_macro_f1": f1}, best_path)
            print(f"  saved new best to {best_path}")

    print(f"reloading best checkpoint ({best_path}) for test evaluation")
    ckpt = torch.load(best_path, map_location="cpu")
    model.load_state_dict(ckpt["model"])
    test_f1 = macro_f1(*predict(model, test_dl))
    print(f"best epoch {ckpt['epoch']} val_macro_f1 {ckpt['val_macro_f1']:.4f} test_macro_f1 {test_f1:.4f}")


if __name__ == "__main__":
    main()
