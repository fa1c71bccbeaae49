import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


def make_energy_data(n, gen):
    """Synthetic building energy load: weather + calendar features -> kWh."""
    temp = 15 + 10 * torch.randn(n, generator=gen)
    hum = torch.rand(n, generator=gen)
    hour = torch.randint(0, 24, (n,), generator=gen).float()
    dow = torch.randint(0, 7, (n,), generator=gen).float()
    occ = torch.rand(n, generator=gen)
    x = torch.stack([temp / 10, hum, torch.sin(hour / 24 * 6.283), torch.cos(hour / 24 * 6.283),
                     (dow >= 5).float(), occ], 1)
    y = 50 + 0.08 * (temp - 18) ** 2 + 20 * occ * (dow < 5).float() + 5 * torch.sin(hour / 24 * 6.283) \
        + 2 * torch.randn(n, generator=gen)
    return x, y


def main():
    print(f"torch {torch.__version__}")
    gen = torch.Generator().manual_seed(0)
    x_train, y_train = make_energy_data(200_000, gen)
    x_val, y_val = make_energy_data(120_000, gen)
    y_mu, y_sd = y_train.mean(), y_train.std()

    loader = DataLoader(TensorDataset(x_train, (y_train - y_mu) / y_sd), batch_size=512, shuffle=True)
    model = nn.Sequential(nn.Linear(6, 128), nn.SiLU(), nn.Linear(128, 128), nn.SiLU(), nn.Linear(128, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    loss_fn = nn.MSELoss()

    for epoch in range(3):
        model.train()
        t0 = time.time()
        running = 0.0
        for xb, yb in loader:
            pred = model(xb).squeeze(-1)
            loss = loss_fn(pred, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch} train loss {running / len(loader):.4f} ({time.time() - t0:.1f}s)")

        model.eval()
        with torch.no_grad():
            preds = model(x_val) * y_sd + y_mu
            rmse = torch.sqrt(((preds - y_val) ** 2).mean())
        print(f"epoch {epoch} val RMSE {rmse.item():.3f} kWh")


if __name__ == "__main__":
    main()
