"""Softmax regression from scratch on a synthetic 'digits-like' dataset.

No nn.Module / optim on purpose: homework says to write the parameters,
the forward pass and the SGD update by hand.
"""
import math
import time

import torch

torch.manual_seed(0)

N_TRAIN, N_VAL = 4000, 1000
N_FEATURES, N_CLASSES = 64, 10
LR = 0.1
EPOCHS = 5
BATCH = 100


def make_data(n):
    # 10 gaussian blobs in 64-d, a bit like flattened 8x8 digit images
    centers = torch.randn(N_CLASSES, N_FEATURES, generator=torch.Generator().manual_seed(1)) * 0.35
    y = torch.randint(0, N_CLASSES, (n,))
    x = centers[y] + torch.randn(n, N_FEATURES)
    return x, y


x_train, y_train = make_data(N_TRAIN)
x_val, y_val = make_data(N_VAL)
print(f"train {tuple(x_train.shape)}  val {tuple(x_val.shape)}")

# parameters
W = torch.randn(N_FEATURES, N_CLASSES) / math.sqrt(N_FEATURES)
W.requires_grad_()
b = torch.zeros(N_CLASSES, requires_grad=True)


def forward(x):
    return x @ W + b


def cross_entropy(logits, y):
    log_probs = logits - logits.logsumexp(dim=1, keepdim=True)
    return -log_probs[torch.arange(len(y)), y].mean()


def accuracy(logits, y):
    return (logits.argmax(dim=1) == y).float().mean().item()


t0 = time.time()
for epoch in range(EPOCHS):
    perm = torch.randperm(N_TRAIN)
    running = 0.0
    for i in range(0, N_TRAIN, BATCH):
        idx = perm[i:i + BATCH]
        xb, yb = x_train[idx], y_train[idx]

        loss = cross_entropy(forward(xb), yb)
        loss.backward()

        # plain SGD step
        W -= LR * W.grad
        b -= LR * b.grad
        W.grad.zero_()
        b.grad.zero_()

        running += loss.item() * len(idx)

    with torch.no_grad():
        val_acc = accuracy(forward(x_val), y_val)
    print(f"epoch {epoch + 1}/{EPOCHS}  train_loss {running / N_TRAIN:.4f}  val_acc {val_acc:.3f}  ({time.time() - t0:.1f}s)")
