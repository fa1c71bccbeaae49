import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

# Synthetic crowd-labelled data: each item was labelled by 5 annotators,
# the training target is the distribution of their votes over 10 classes.
NUM_CLASSES, DIM, ANNOTATORS = 10, 32, 5
protos = torch.randn(NUM_CLASSES, DIM)


def make_split(n):
    y = torch.randint(0, NUM_CLASSES, (n,))
    x = protos[y] + 0.7 * torch.randn(n, DIM)
    # a few features are raw counts / amounts with a large dynamic range
    x[:, :8] = torch.exp(1.6 * x[:, :8])
    votes = torch.where(torch.rand(n, ANNOTATORS) < 0.8,
                        y.unsqueeze(1), torch.randint(0, NUM_CLASSES, (n, ANNOTATORS)))
    soft = F.one_hot(votes, NUM_CLASSES).float().mean(1)
    return TensorDataset(x, soft, y)


train_dl = DataLoader(make_split(10000), batch_size=128, shuffle=True)
val_dl = DataLoader(make_split(2000), batch_size=1000)

model = nn.Sequential(
    nn.Linear(DIM, 256), nn.ReLU(),
    nn.Linear(256, 256), nn.ReLU(),
    nn.Linear(256, NUM_CLASSES),
)


def soft_target_ce(logits, target_dist):
    probs = F.softmax(logits, dim=-1)
    return -(target_dist * torch.log(probs)).sum(dim=-1).mean()


opt = torch.optim.Adam(model.parameters(), lr=1e-3)


@torch.no_grad()
def evaluate():
    model.eval()
    correct = total = 0
    for x, _, y in val_dl:
        correct += (model(x).argmax(1) == y).sum().item()
        total += y.numel()
    model.train()
    return correct / total


step, t0 = 0, time.time()
for epoch in range(4):
    ep_loss, n = 0.0, 0
    for x, soft, _ in train_dl:
        loss = soft_target_ce(model(x), soft)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ep_loss += loss.item(); n += 1
        if step % 25 == 0:
            print(f"step {step:4d} | loss {loss.item():.4f}")
        step += 1
    print(f"== epoch {epoch+1} | mean train loss {ep_loss/n:.4f} | val_acc {evaluate():.4f}")
print(f"done: {step} steps, {time.time()-t0:.1f}s")
