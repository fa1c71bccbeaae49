"""Frame-level voice activity detection (VAD) on 40-band log-mel features, 10 ms frames.

Model: dilated 1D conv net, per-frame speech/non-speech logit. Validation reports frame precision/recall/F1.
Clips are variable length; padded frames carry label -1 and are ignored.
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
N_MELS, PAD = 40, -1


class SyntheticVAD(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.items = []
        for _ in range(n):
            T = int(torch.randint(300, 900, (1,), generator=g))
            lab = torch.zeros(T, dtype=torch.long)
            pos = 0
            while pos < T:
                seg = int(torch.randint(20, 120, (1,), generator=g))
                lab[pos:pos + seg] = int(torch.rand(1, generator=g) < 0.55)
                pos += seg
            feats = torch.randn(T, N_MELS, generator=g) * 0.8
            feats[lab == 1, 5:25] += 1.0
            self.items.append((feats, lab))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    T = max(f.shape[0] for f, _ in batch)
    x = torch.zeros(len(batch), N_MELS, T)
    y = torch.full((len(batch), T), PAD, dtype=torch.long)
    for i, (f, l) in enumerate(batch):
        x[i, :, :f.shape[0]] = f.T
        y[i, :len(l)] = l
    return x, y


class VADNet(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        layers, c_in = [], N_MELS
        for d in (1, 2, 4, 8):
            layers += [nn.Conv1d(c_in, ch, 3, padding=d, dilation=d), nn.BatchNorm1d(ch), nn.ReLU()]
            c_in = ch
        self.body = nn.Sequential(*layers)
        self.out = nn.Conv1d(ch, 1, 1)

    def forward(self, x):
        return self.out(self.body(x)).squeeze(1)


def frame_metrics(logits, labels):
    pred = (logits > 0).long()
    tp = fp = fn = n = 0
    for p, t in zip(pred.flatten(), labels.flatten()):
        if t == PAD:
            continue
        n += 1
        if p == 1 and t == 1:
            tp += 1
        elif p == 1 and t == 0:
            fp += 1
        elif p == 0 and t == 1:
            fn += 1
    return tp, fp, fn, n


train_dl = DataLoader(SyntheticVAD(800, 1), batch_size=32, shuffle=True, collate_fn=collate)
val_dl = DataLoader(SyntheticVAD(1000, 2), batch_size=64, collate_fn=collate)
model = VADNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(3):
    model.train()
    t0, frames = time.time(), 0
    for x, y in train_dl:
        logits = model(x)
        mask = y != PAD
        loss = F.binary_cross_entropy_with_logits(logits[mask], y[mask].float())
        opt.zero_grad()
        loss.backward()
        opt.step()
        frames += mask.sum().item()
    t_train = time.time() - t0

    model.eval()
    t0 = time.time()
    tp = fp = fn = n = 0
    with torch.no_grad():
        for x, y in val_dl:
            a, b, c, d = frame_metrics(model(x), y)
            tp, fp, fn, n = tp + a, fp + b, fn + c, n + d
    t_val = time.time() - t0
    prec, rec = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
    print(f"epoch {epoch} loss {loss.item():.4f} | train {frames / t_train:,.0f} frames/s ({t_train:.1f}s) "
          f"| val {n / t_val:,.0f} frames/s ({t_val:.1f}s) P {prec:.3f} R {rec:.3f} F1 {2 * prec * rec / max(prec + rec, 1e-9):.3f}",
          flush=True)
