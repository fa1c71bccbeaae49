"""CRNN + CTC recogniser for printed invoice-number fields (synthetic renderer)."""
import math
import random
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

CHARSET = "0123456789-/ABCDEFGHJKLMNPRSTUVWXYZ"
BLANK = 0                       # CTC blank, chars are 1..len(CHARSET)
IMG_H = 32
SEED = 7

torch.manual_seed(SEED)
np.random.seed(SEED)
random.seed(SEED)

# one fixed "font": a glyph bitmap per character, printed at its natural width
_rng = np.random.default_rng(SEED)
GLYPH_W = {c: (5 if c in "1-/I" else int(_rng.integers(9, 14))) for c in CHARSET}
GLYPHS = {c: (_rng.random((IMG_H - 8, GLYPH_W[c])) > 0.55).astype(np.float32) for c in CHARSET}


def render(text, rng):
    cols = [np.zeros((IMG_H, 4), np.float32)]
    for ch in text:
        g = np.zeros((IMG_H, GLYPH_W[ch] + 1), np.float32)
        g[4:-4, :GLYPH_W[ch]] = GLYPHS[ch]
        cols.append(g)
    cols.append(np.zeros((IMG_H, 4), np.float32))
    img = np.concatenate(cols, axis=1)
    img += rng.normal(0, 0.25, img.shape).astype(np.float32)
    return img


def random_field(rng):
    kind = rng.random()
    if kind < 0.5:      # plain invoice number, e.g. 2023-001184
        return f"{rng.integers(2019, 2025)}-{rng.integers(0, 999999):06d}"
    if kind < 0.95:     # supplier ref, e.g. KR/77/1100
        pre = "".join(rng.choice(list("ABCDEFGHJKLMNPRSTUVWXYZ"), size=2))
        return f"{pre}/{rng.integers(10, 99)}/{rng.integers(1000, 9999)}"
    return str(rng.integers(10 ** 5, 10 ** 9))


class FieldCrops(Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.items = []
        for _ in range(n):
            text = random_field(rng)
            self.items.append((render(text, rng), text))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        img, text = self.items[i]
        target = torch.tensor([CHARSET.index(c) + 1 for c in text], dtype=torch.long)
        return torch.from_numpy(img), target


def collate(batch):
    imgs, targets = zip(*batch)
    w = max(im.shape[1] for im in imgs)
    x = torch.zeros(len(imgs), 1, IMG_H, w)
    for k, im in enumerate(imgs):
        x[k, 0, :, : im.shape[1]] = im
    widths = torch.tensor([im.shape[1] for im in imgs])
    tgt_lens = torch.tensor([len(t) for t in targets])
    return x, widths, torch.cat(targets), tgt_lens


class CRNN(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        def block(cin, cout, pool):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout),
                                 nn.ReLU(inplace=True), nn.MaxPool2d(pool))
        self.cnn = nn.Sequential(block(1, 32, 2), block(32, 64, 2), block(64, 128, 2))
        self.time_stride = 8
        self.rnn = nn.LSTM(128 * (IMG_H // 8), 128, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(256, n_classes)

    def forward(self, x):
        f = self.cnn(x)                               # B, C, H', W'
        b, c, h, w = f.shape
        f = f.permute(0, 3, 1, 2).reshape(b, w, c * h)  # B, T, C*H'
        out, _ = self.rnn(f)
        return self.fc(out)                           # B, T, classes


def main():
    train_ds, val_ds = FieldCrops(4000, 1), FieldCrops(500, 2)
    train_dl = DataLoader(train_ds, batch_size=32, shuffle=True, collate_fn=collate)
    val_dl = DataLoader(val_ds, batch_size=64, collate_fn=collate)
    model = CRNN(len(CHARSET) + 1)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ctc = nn.CTCLoss(blank=BLANK)
    print(f"train={len(train_ds)} val={len(val_ds)} charset={len(CHARSET)} params={sum(p.numel() for p in model.parameters())/1e6:.2f}M")

    step = 0
    for epoch in range(2):
        model.train()
        t0 = time.time()
        for x, widths, targets, tgt_lens in train_dl:
            logits = model(x)
            log_probs = logits.log_softmax(-1).transpose(0, 1)       # T, B, C for CTCLoss
            in_lens = torch.div(widths, model.time_stride, rounding_mode="floor")
            loss = ctc(log_probs, targets, in_lens, tgt_lens)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            step += 1
            if step % 10 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
        model.eval()
        correct = total = 0
        with torch.no_grad():
            for x, widths, targets, tgt_lens in val_dl:
                pred = model(x).argmax(-1)
                in_lens = torch.div(widths, model.time_stride, rounding_mode="floor")
                refs = torch.split(targets, tgt_lens.tolist())
                for p, n, ref in zip(pred, in_lens, refs):
                    seq, prev = [], BLANK
                    for k in p[:n].tolist():
                        if k != prev and k != BLANK:
                            seq.append(k)
                        prev = k
                    correct += int(seq == ref.tolist())
                    total += 1
        print(f"epoch {epoch} done in {time.time()-t0:.1f}s  val exact-match {correct/total:.3f}")


if __name__ == "__main__":
    main()
