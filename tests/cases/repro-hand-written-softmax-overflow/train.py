"""Topic classifier over raw word counts of long support tickets, with its own softmax cross-entropy."""

import torch
from torch import nn

torch.manual_seed(0)
N_FEATURES, N_CLASSES, N = 300, 6, 2048

# word counts of long tickets; each topic has its own cue words
labels = torch.randint(0, N_CLASSES, (N,))
features = torch.poisson(torch.full((N, N_FEATURES), 3.0))
for c in range(N_CLASSES):
    features[labels == c, c * 10:(c + 1) * 10] += 25.0

model = nn.Sequential(nn.Linear(N_FEATURES, 128), nn.ReLU(), nn.Linear(128, N_CLASSES))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


def softmax(logits):
    e = torch.exp(logits)
    return e / e.sum(dim=1, keepdim=True)


def cross_entropy(logits, target):
    probs = softmax(logits)
    return -torch.log(probs[torch.arange(len(target)), target] + 1e-9).mean()


for epoch in range(6):
    perm = torch.randperm(N)
    total, correct = 0.0, 0
    for start in range(0, N, 64):
        idx = perm[start:start + 64]
        logits = model(features[idx])
        loss = cross_entropy(logits, labels[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(idx)
        correct += (logits.argmax(1) == labels[idx]).sum().item()
    print(f"epoch {epoch}: loss {total / N:.4f} acc {correct / N:.3f} "
          f"max |logit| {logits.abs().max().item():.1f}")
