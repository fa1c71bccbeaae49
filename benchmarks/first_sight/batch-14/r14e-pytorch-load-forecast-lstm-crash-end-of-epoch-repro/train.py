"""Next-hour load forecasting for a substation feeder with a stateful LSTM."""
import math
import time
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

SEQ_LEN = 24          # hours per window
BATCH_SIZE = 64
HIDDEN = 64
LAYERS = 2
EPOCHS = 5
LR = 2e-3


def make_load_series(n_hours=24 * 365 * 3, seed=1):
    rng = np.random.default_rng(seed)
    t = np.arange(n_hours)
    daily = 0.6 * np.sin(2 * math.pi * t / 24 - 1.2)
    weekly = 0.25 * np.sin(2 * math.pi * t / (24 * 7))
    yearly = 0.4 * np.cos(2 * math.pi * t / (24 * 365))
    temp = 12 + 10 * np.cos(2 * math.pi * t / (24 * 365) + math.pi) + rng.normal(0, 2, n_hours)
    load = 3.0 + daily + weekly + yearly + 0.03 * np.abs(temp - 18) + rng.normal(0, 0.08, n_hours)
    return np.stack([load, temp], axis=1).astype(np.float32)


class LoadWindows(Dataset):
    """Consecutive, non-overlapping windows; target is the load one hour after each step."""

    def __init__(self, series, seq_len):
        self.series = torch.from_numpy(series)
        self.seq_len = seq_len
        self.n = (len(series) - 1) // seq_len

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        a = i * self.seq_len
        x = self.series[a:a + self.seq_len]
        y = self.series[a + 1:a + self.seq_len + 1, 0]
        return x, y


class StatefulLSTM(nn.Module):
    def __init__(self, n_in, hidden, layers, batch_size):
        super().__init__()
        self.lstm = nn.LSTM(n_in, hidden, num_layers=layers, batch_first=True)
        self.head = nn.Linear(hidden, 1)
        self.hidden, self.layers, self.batch_size = hidden, layers, batch_size
        self.reset_state()

    def reset_state(self):
        self.state = (torch.zeros(self.layers, self.batch_size, self.hidden),
                      torch.zeros(self.layers, self.batch_size, self.hidden))

    def forward(self, x):
        out, (h, c) = self.lstm(x, self.state)
        self.state = (h.detach(), c.detach())
        return self.head(out).squeeze(-1)


def main():
    torch.manual_seed(0)
    series = make_load_series()
    split = int(len(series) * 0.85)
    mean, std = series[:split].mean(0), series[:split].std(0)
    series = (series - mean) / std
    train_ds = LoadWindows(series[:split], SEQ_LEN)
    val_ds = LoadWindows(series[split:], SEQ_LEN)
    print(f"train windows {len(train_ds)}  val windows {len(val_ds)}")

    # keep windows in time order so the carried state sees the preceding hours
    train_dl = DataLoader(train_ds, batch_size=BATCH_SIZE, shuffle=False)
    val_dl = DataLoader(val_ds, batch_size=BATCH_SIZE, shuffle=False)

    model = StatefulLSTM(2, HIDDEN, LAYERS, BATCH_SIZE)
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    loss_fn = nn.MSELoss()

    for epoch in range(EPOCHS):
        model.train()
        model.reset_state()
        t0, total, steps = time.time(), 0.0, 0
        for step, (x, y) in enumerate(train_dl):
            pred = model(x)
            loss = loss_fn(pred, y)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            total += loss.item()
            steps += 1
            if step % 5 == 0:
                print(f"epoch {epoch} step {step}/{len(train_dl)} loss {loss.item():.4f}")
        model.eval()
        model.reset_state()
        val_total = 0.0
        with torch.no_grad():
            for x, y in val_dl:
                val_total += loss_fn(model(x), y).item() * len(x)
        print(f"epoch {epoch} train_mse {total / steps:.4f} val_mse {val_total / len(val_ds):.4f} "
              f"({time.time() - t0:.1f}s)")
    torch.save(model.state_dict(), "feeder_lstm.pt")


if __name__ == "__main__":
    main()
