import json
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

# hyper-parameters carried over from the original TF1 implementation (hparams.json of the old repo)
HPARAMS = json.loads("""{
  "hidden_units": [256, 256, 128],
  "keep_prob": 0.9,
  "learning_rate": 0.001,
  "batch_size": 128,
  "epochs": 12,
  "l2": 1e-5
}""")


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(10, 40, generator=torch.Generator().manual_seed(123)) * 0.6
    y = torch.randint(0, 10, (n,), generator=g)
    x = centers[y] + torch.randn(n, 40, generator=g)
    x = torch.cat([x, torch.tanh(x[:, :20] * x[:, 20:])], dim=1)
    return TensorDataset(x, y)


class SensorNet(nn.Module):
    def __init__(self, in_dim, hidden_units, n_classes, dropout):
        super().__init__()
        layers, d = [], in_dim
        for h in hidden_units:
            layers += [nn.Linear(d, h), nn.ReLU(), nn.Dropout(dropout)]
            d = h
        self.body = nn.Sequential(*layers)
        self.head = nn.Linear(d, n_classes)

    def forward(self, x):
        return self.head(self.body(x))


def run_epoch(model, loader, opt=None):
    train = opt is not None
    model.train(train)
    tot_loss, correct, n = 0.0, 0, 0
    with torch.set_grad_enabled(train):
        for x, y in loader:
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            if train:
                opt.zero_grad()
                loss.backward()
                opt.step()
            tot_loss += loss.item() * len(y)
            correct += (logits.argmax(1) == y).sum().item()
            n += len(y)
    return tot_loss / n, correct / n


def main():
    torch.manual_seed(0)
    hp = HPARAMS
    train_ds, val_ds = make_data(12000, 1), make_data(3000, 2)
    train_dl = DataLoader(train_ds, batch_size=hp["batch_size"], shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=1024)
    model = SensorNet(60, hp["hidden_units"], 10, dropout=hp["keep_prob"])
    opt = torch.optim.Adam(model.parameters(), lr=hp["learning_rate"], weight_decay=hp["l2"])
    print(model)
    print(f"train={len(train_ds)} val={len(val_ds)} params={sum(p.numel() for p in model.parameters())}")
    for epoch in range(1, hp["epochs"] + 1):
        t0 = time.time()
        tr_loss, tr_acc = run_epoch(model, train_dl, opt)
        va_loss, va_acc = run_epoch(model, val_dl)
        print(f"epoch {epoch:2d} | train loss {tr_loss:.4f} acc {tr_acc:.3f} | val loss {va_loss:.4f} acc {va_acc:.3f} | {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
