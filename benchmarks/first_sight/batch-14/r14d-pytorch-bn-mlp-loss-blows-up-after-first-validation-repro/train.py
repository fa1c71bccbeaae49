import time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(1)
torch.set_num_threads(2)

CFG = dict(epochs=8, batch_size=128, lr=1.0, momentum=0.9, weight_decay=5e-4, hidden=256, lr_drop_epoch=6)


def make_data(n, rng, w1, w2):
    x = rng.normal(size=(n, 40)).astype(np.float32)
    h = np.tanh(x @ w1)
    logits = h @ w2
    y = logits.argmax(1)
    return x, y.astype(np.int64)


def block(i, o):
    return nn.Sequential(nn.Linear(i, o, bias=False), nn.BatchNorm1d(o), nn.ReLU())


class Net(nn.Module):
    def __init__(self, n_in, n_out, hidden):
        super().__init__()
        self.body = nn.Sequential(block(n_in, hidden), block(hidden, hidden),
                                  block(hidden, hidden), block(hidden, hidden))
        self.head = nn.Linear(hidden, n_out)

    def forward(self, x):
        return self.head(self.body(x))


def validate(model, loader):
    model.eval()
    correct, loss_sum, n = 0, 0.0, 0
    with torch.no_grad():
        for xb, yb in loader:
            out = model(xb)
            loss_sum += F.cross_entropy(out, yb, reduction="sum").item()
            correct += (out.argmax(1) == yb).sum().item()
            n += len(yb)
    return loss_sum / n, correct / n


def main():
    rng = np.random.default_rng(0)
    w1 = rng.normal(size=(40, 64)) / np.sqrt(40)
    w2 = rng.normal(size=(64, 10)) / np.sqrt(64) * 3
    x_tr, y_tr = make_data(30000, rng, w1, w2)
    x_va, y_va = make_data(5000, rng, w1, w2)
    train_dl = DataLoader(TensorDataset(torch.from_numpy(x_tr), torch.from_numpy(y_tr)),
                          batch_size=CFG["batch_size"], shuffle=True, drop_last=True)
    val_dl = DataLoader(TensorDataset(torch.from_numpy(x_va), torch.from_numpy(y_va)), batch_size=1000)

    model = Net(40, 10, CFG["hidden"])
    opt = torch.optim.SGD(model.parameters(), lr=CFG["lr"], momentum=CFG["momentum"],
                          weight_decay=CFG["weight_decay"], nesterov=True)
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[CFG["lr_drop_epoch"]], gamma=0.1)
    print(CFG)

    model.train()
    for epoch in range(1, CFG["epochs"] + 1):
        t0 = time.time()
        run_loss, run_n = 0.0, 0
        for step, (xb, yb) in enumerate(train_dl, 1):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            run_loss += loss.item()
            run_n += 1
            if step % 26 == 0:
                print(f"epoch {epoch} step {step:3d} | train_loss {run_loss / run_n:.4f} | lr {sched.get_last_lr()[0]:.4f}")
                run_loss, run_n = 0.0, 0
        sched.step()
        val_loss, val_acc = validate(model, val_dl)
        print(f"=== epoch {epoch} | val_loss {val_loss:.4f} | val_acc {val_acc:.4f} | {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
