"""Human-activity recognition from wrist-IMU window features (6 activities).
Port of our Keras baseline (Dense + BatchNormalization blocks, BN on the raw
inputs instead of a separate scaler) to PyTorch + accelerate."""
import numpy as np
import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

ACTIVITIES = ["walking", "upstairs", "downstairs", "sitting", "standing", "lying"]
N_FEAT = 48

# hyper-parameters copied from the Keras config
KERAS_CFG = {"hidden": [128, 64], "bn_momentum": 0.99, "bn_epsilon": 1e-3, "dropout": 0.2,
             "lr": 1e-3, "batch_size": 64, "epochs": 8}


def make_windows(n, rng, centers, offset):
    """Synthetic stand-in for the per-window statistics (means, stds, energies, ...):
    features live on very different scales, like the real export."""
    y = rng.integers(0, len(ACTIVITIES), n)
    scale = np.geomspace(0.01, 500, N_FEAT)
    X = (centers[y] + rng.normal(0, 1.0, (n, N_FEAT)) + offset) * scale
    return X.astype(np.float32), y


def block(i, o, cfg):
    return nn.Sequential(nn.Linear(i, o),
                         nn.BatchNorm1d(o, eps=cfg["bn_epsilon"], momentum=cfg["bn_momentum"]),
                         nn.ReLU(), nn.Dropout(cfg["dropout"]))


class HARNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        h1, h2 = cfg["hidden"]
        self.input_bn = nn.BatchNorm1d(N_FEAT, eps=cfg["bn_epsilon"], momentum=cfg["bn_momentum"])
        self.body = nn.Sequential(block(N_FEAT, h1, cfg), block(h1, h2, cfg))
        self.out = nn.Linear(h2, len(ACTIVITIES))

    def forward(self, x):
        return self.out(self.body(self.input_bn(x)))


def main():
    cfg = KERAS_CFG
    set_seed(0)
    rng = np.random.default_rng(0)
    centers = rng.normal(0, 0.8, (len(ACTIVITIES), N_FEAT))
    offset = rng.normal(0, 3, N_FEAT)
    Xtr, ytr = make_windows(2050, rng, centers, offset)
    Xva, yva = make_windows(600, rng, centers, offset)
    accelerator = Accelerator()
    train_dl = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr)),
                          batch_size=cfg["batch_size"], shuffle=True)
    val_dl = DataLoader(TensorDataset(torch.from_numpy(Xva), torch.from_numpy(yva)), batch_size=200)
    model = HARNet(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    model, opt, train_dl, val_dl = accelerator.prepare(model, opt, train_dl, val_dl)
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(cfg["epochs"]):
        model.train()
        correct, seen, tot = 0, 0, 0.0
        for xb, yb in train_dl:
            logits = model(xb)
            loss = loss_fn(logits, yb)
            opt.zero_grad()
            accelerator.backward(loss)
            opt.step()
            tot += loss.item() * len(yb)
            correct += (logits.argmax(1) == yb).sum().item()
            seen += len(yb)
        model.eval()
        vc, vl = 0, 0.0
        with torch.no_grad():
            for xb, yb in val_dl:
                logits = model(xb)
                vl += loss_fn(logits, yb).item() * len(yb)
                vc += (logits.argmax(1) == yb).sum().item()
        accelerator.print(f"epoch {epoch} train_loss {tot / seen:.4f} train_acc {correct / seen:.3f} "
                          f"val_loss {vl / len(yva):.4f} val_acc {vc / len(yva):.3f}")


if __name__ == "__main__":
    main()
