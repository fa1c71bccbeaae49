import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
np.random.seed(0)

N_CLASSES = 10
N_FEAT = 40


def make_data(n):
    """Sensor readings with annotator label distributions. ~80% of samples had all
    annotators agree (one-hot), the rest carry the vote distribution of 3 annotators
    (the disagreeing annotator usually picks the neighbouring grade)."""
    centers = np.random.RandomState(42).normal(0, 3.0, (N_CLASSES, N_FEAT))
    y = np.random.randint(0, N_CLASSES, n)
    x = 70.0 + 28.0 * (centers[y] + np.random.normal(0, 1.0, (n, N_FEAT)))
    votes = np.zeros((n, N_CLASSES), dtype=np.float32)
    for i in range(n):
        if np.random.rand() < 0.8:
            votes[i, y[i]] = 3
        else:
            votes[i, y[i]] += 2
            votes[i, (y[i] + 1) % N_CLASSES] += 1
    target = votes / votes.sum(1, keepdims=True)
    return torch.tensor(x, dtype=torch.float32), torch.tensor(target), torch.tensor(y)


def soft_cross_entropy(logits, target_probs):
    probs = torch.softmax(logits, dim=-1)
    return -(target_probs * torch.log(probs)).sum(dim=-1).mean()


def main():
    print(f"torch {torch.__version__}")
    xtr, ttr, _ = make_data(20000)
    xva, _, yva = make_data(2000)
    loader = DataLoader(TensorDataset(xtr, ttr), batch_size=128, shuffle=True)
    model = nn.Sequential(
        nn.Linear(N_FEAT, 256), nn.ReLU(),
        nn.Linear(256, 256), nn.ReLU(),
        nn.Linear(256, N_CLASSES),
    )
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for epoch in range(8):
        model.train()
        t0 = time.time()
        losses = []
        for step, (x, t) in enumerate(loader):
            loss = soft_cross_entropy(model(x), t)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
            if epoch == 0 and (step < 5 or step % 40 == 0):
                print(f"  step {step:3d} loss {loss.item():.4f}")
        model.eval()
        with torch.no_grad():
            logits = model(xva)
            acc = (logits.argmax(1) == yva).float().mean().item()
        print(f"epoch {epoch:2d} mean loss {np.mean(losses):.4f} val acc {acc:.4f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
