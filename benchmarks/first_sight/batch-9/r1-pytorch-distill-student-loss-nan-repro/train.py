"""Distil a 20-way intent classifier (teacher MLP on sentence embeddings) into a small student.

Stage 1 trains the teacher and caches its soft targets to disk (fp16 to keep the cache small,
the real embedding set is ~40M rows). Stage 2 trains the student on CE + KD.
"""
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
np.random.seed(0)

N_CLASSES = 20
DIM = 256
N_TRAIN, N_VAL = 12_000, 2_000
T = 2.0          # distillation temperature
ALPHA = 0.5      # weight of the hard-label CE term
CACHE = "teacher_soft_targets.npy"


def make_data():
    centers = torch.randn(N_CLASSES, DIM) * 0.25
    y = torch.randint(0, N_CLASSES, (N_TRAIN + N_VAL,))
    X = centers[y] + torch.randn(N_TRAIN + N_VAL, DIM)
    return X[:N_TRAIN], y[:N_TRAIN], X[N_TRAIN:], y[N_TRAIN:]


def mlp(hidden):
    return nn.Sequential(nn.Linear(DIM, hidden), nn.GELU(), nn.Linear(hidden, hidden), nn.GELU(),
                         nn.Linear(hidden, N_CLASSES))


def accuracy(model, X, y):
    model.eval()
    with torch.no_grad():
        return (model(X).argmax(1) == y).float().mean().item()


def train_teacher(Xtr, ytr, Xva, yva):
    teacher = mlp(512)
    opt = torch.optim.AdamW(teacher.parameters(), lr=1e-3)
    dl = DataLoader(TensorDataset(Xtr, ytr), batch_size=256, shuffle=True)
    for ep in range(8):
        teacher.train()
        tot = 0.0
        for xb, yb in dl:
            loss = F.cross_entropy(teacher(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        print(f"[teacher] epoch {ep} loss {tot / len(dl):.4f} val_acc {accuracy(teacher, Xva, yva):.4f}")
    return teacher


def cache_soft_targets(teacher, X):
    teacher.eval()
    with torch.no_grad():
        probs = F.softmax(teacher(X) / T, dim=-1)
    np.save(CACHE, probs.numpy().astype(np.float16))
    print(f"[teacher] cached soft targets {tuple(probs.shape)} -> {CACHE} "
          f"({os.path.getsize(CACHE) / 1e6:.1f} MB)")


def kd_loss(student_logits, teacher_probs, labels):
    log_q = F.log_softmax(student_logits / T, dim=-1)
    kl = (teacher_probs * (teacher_probs.log() - log_q)).sum(-1).mean()
    ce = F.cross_entropy(student_logits, labels)
    return ALPHA * ce + (1 - ALPHA) * (T * T) * kl, ce, kl


def train_student(Xtr, ytr, Xva, yva):
    soft = torch.from_numpy(np.load(CACHE)).float()
    print(f"[student] loaded soft targets, row sums min {soft.sum(1).min():.4f} max {soft.sum(1).max():.4f}")
    student = mlp(64)
    opt = torch.optim.AdamW(student.parameters(), lr=2e-3)
    dl = DataLoader(TensorDataset(Xtr, soft, ytr), batch_size=128, shuffle=True)
    step = 0
    for ep in range(3):
        student.train()
        t0 = time.time()
        for xb, tb, yb in dl:
            loss, ce, kl = kd_loss(student(xb), tb, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step % 25 == 0 or step <= 3:
                print(f"[student] epoch {ep} step {step:4d} loss {loss.item():.4f} "
                      f"ce {ce.item():.4f} kl {kl.item():.4f}")
        print(f"[student] epoch {ep} done in {time.time() - t0:.1f}s val_acc {accuracy(student, Xva, yva):.4f}")


if __name__ == "__main__":
    Xtr, ytr, Xva, yva = make_data()
    teacher = train_teacher(Xtr, ytr, Xva, yva)
    cache_soft_targets(teacher, Xtr)
    train_student(Xtr, ytr, Xva, yva)
