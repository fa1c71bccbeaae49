import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)

NUM_FEATURES = 20
NUM_CLASSES = 5
N_TRAIN = 8000
N_VAL = 2000
BATCH_SIZE = 64
EPOCHS = 12
LR = 0.05
MOMENTUM = 0.9
WEIGHT_DECAY = 0.05
LOG_EVERY = 50


class SGDW(torch.optim.Optimizer):
    """SGD with momentum and decoupled weight decay."""

    def __init__(self, params, lr=1e-2, momentum=0.9, weight_decay=0.0):
        if lr <= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= momentum < 1.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, momentum=momentum, weight_decay=weight_decay)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            lr = group["lr"]
            momentum = group["momentum"]
            weight_decay = group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "momentum_buffer" not in state:
                    buf = state["momentum_buffer"] = p.grad.detach().clone()
                else:
                    buf = state["momentum_buffer"]
                    buf.mul_(momentum).add_(p.grad)
                if weight_decay != 0:
                    p.mul_(1 + lr * weight_decay)
                p.add_(buf, alpha=-lr)
        return loss


def make_split(n, centers, generator):
    y = torch.randint(0, NUM_CLASSES, (n,), generator=generator)
    x = centers[y] + torch.randn(n, NUM_FEATURES, generator=generator)
    return x, y


class Classifier(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(NUM_FEATURES, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.head = nn.Linear(hidden, NUM_CLASSES)

    def forward(self, x):
        return self.head(self.body(x))


@torch.no_grad()
def evaluate(model, x, y):
    model.eval()
    logits = model(x)
    loss = F.cross_entropy(logits, y).item()
    acc = (logits.argmax(dim=1) == y).float().mean().item()
    model.train()
    return loss, acc


def main():
    g = torch.Generator().manual_seed(1234)
    centers = torch.randn(NUM_CLASSES, NUM_FEATURES, generator=g) * 0.4
    x_train, y_train = make_split(N_TRAIN, centers, g)
    x_val, y_val = make_split(N_VAL, centers, g)
    train_loader = DataLoader(TensorDataset(x_train, y_train), batch_size=BATCH_SIZE, shuffle=True)

    model = Classifier()
    optimizer = SGDW(model.parameters(), lr=LR, momentum=MOMENTUM, weight_decay=WEIGHT_DECAY)
    print(f"train={N_TRAIN} val={N_VAL} batch_size={BATCH_SIZE} steps/epoch={len(train_loader)}")
    print(f"optimizer=SGDW lr={LR} momentum={MOMENTUM} weight_decay={WEIGHT_DECAY}")

    step = 0
    for epoch in range(1, EPOCHS + 1):
        t0 = time.time()
        loss_sum, correct, seen = 0.0, 0, 0
        for x, y in train_loader:
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=float("inf"))
            optimizer.step()
            step += 1
            loss_sum += loss.item() * y.size(0)
            correct += (logits.argmax(dim=1) == y).sum().item()
            seen += y.size(0)
            if step % LOG_EVERY == 0:
                print(f"step {step:5d} | epoch {epoch:2d} | loss {loss.item():.4f} | grad_norm {grad_norm.item():.3f} | lr {LR}")
        val_loss, val_acc = evaluate(model, x_val, y_val)
        print(f"epoch {epoch:2d} | train_loss {loss_sum / seen:.4f} | train_acc {correct / seen:.4f} | "
              f"val_loss {val_loss:.4f} | val_acc {val_acc:.4f} | {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
