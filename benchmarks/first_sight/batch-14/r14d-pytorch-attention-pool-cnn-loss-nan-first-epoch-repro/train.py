import time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
torch.set_num_threads(2)

CFG = dict(epochs=10, batch_size=64, lr=3e-3, channels=6, max_len=120, temperature=0.1)
EVENTS = ["normal", "bearing_wear", "misalignment", "imbalance"]


class VibrationWindows(Dataset):
    """Variable-length 6-channel vibration recordings, padded later in collate."""
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.items = []
        for _ in range(n):
            y = int(rng.integers(0, len(EVENTS)))
            L = int(rng.integers(40, CFG["max_len"] + 1))
            t = np.arange(L)[:, None]
            x = 0.5 * rng.normal(size=(L, CFG["channels"]))
            if y > 0:  # short fault burst somewhere in the recording
                s = int(rng.integers(0, L - 10))
                freq = [0, 0.9, 0.45, 0.2][y]
                x[s:s + 10] += 2.0 * np.sin(freq * t[s:s + 10] + np.arange(CFG["channels"]))
            self.items.append((x.astype(np.float32), y))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    L = max(len(x) for x, _ in batch)
    xs = torch.zeros(len(batch), L, CFG["channels"])
    mask = torch.zeros(len(batch), L)
    for i, (x, _) in enumerate(batch):
        xs[i, :len(x)] = torch.from_numpy(x)
        mask[i, :len(x)] = 1
    return xs, mask, torch.tensor([y for _, y in batch])


class AttnPoolCNN(nn.Module):
    def __init__(self, c_in, n_cls, d=64, temperature=1.0):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(c_in, d, 5, padding=2), nn.ReLU(),
                                  nn.Conv1d(d, d, 5, padding=2), nn.ReLU())
        self.score = nn.Linear(d, 1)
        self.temperature = temperature
        self.out = nn.Linear(d, n_cls)

    def forward(self, x, mask):
        h = self.conv(x.transpose(1, 2)).transpose(1, 2)          # (B, L, d)
        s = self.score(h).squeeze(-1) / self.temperature          # (B, L)
        e = torch.exp(s) * mask
        w = e / e.sum(dim=1, keepdim=True)
        pooled = (w.unsqueeze(-1) * h).sum(1)
        return self.out(pooled)


def main():
    train_dl = DataLoader(VibrationWindows(4000, 1), batch_size=CFG["batch_size"], shuffle=True, collate_fn=collate)
    val_dl = DataLoader(VibrationWindows(800, 2), batch_size=200, collate_fn=collate)
    model = AttnPoolCNN(CFG["channels"], len(EVENTS), temperature=CFG["temperature"])
    opt = torch.optim.Adam(model.parameters(), lr=CFG["lr"])
    print(CFG)
    step = 0
    for epoch in range(1, CFG["epochs"] + 1):
        model.train()
        t0 = time.time()
        for xb, mb, yb in train_dl:
            loss = F.cross_entropy(model(xb, mb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step % 25 == 0:
                print(f"epoch {epoch} step {step} | loss {loss.item():.4f}")
        model.eval()
        correct = 0
        with torch.no_grad():
            for xb, mb, yb in val_dl:
                correct += (model(xb, mb).argmax(1) == yb).sum().item()
        print(f"=== epoch {epoch} | val_acc {correct / len(val_dl.dataset):.4f} | {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
