"""Credit-default MLP trained from the scoring team's feature table (pandas DataFrame)."""
import time

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

NUM_COLS = [f"f{i:02d}" for i in range(24)]
CAT_COLS = ["segment", "region"]


def load_feature_table(n, seed):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(rng.standard_normal((n, len(NUM_COLS))).astype(np.float32), columns=NUM_COLS)
    df["segment"] = rng.integers(0, 4, n)
    df["region"] = rng.choice(["north", "south", "east", "west"], n)
    df["region_id"] = df["region"].map({"north": 0, "south": 1, "east": 2, "west": 3})
    df["customer_id"] = [f"C{i:07d}" for i in range(n)]
    logit = df["f00"] - 0.8 * df["f03"] + 0.5 * df["f07"] * df["f11"] + 0.3 * df["segment"] - 1.0
    df["default"] = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    return df


class FeatureTable(Dataset):
    def __init__(self, df):
        self.df = df.reset_index(drop=True)

    def __len__(self):
        return len(self.df)

    def __getitem__(self, i):
        row = self.df.iloc[i]
        num = torch.tensor(row[NUM_COLS].to_numpy(dtype=np.float32))
        cat = torch.tensor([row["segment"], row["region_id"]], dtype=torch.long)
        return num, cat, torch.tensor(row["default"], dtype=torch.float32)


class DefaultMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.seg = nn.Embedding(4, 4)
        self.reg = nn.Embedding(4, 4)
        self.mlp = nn.Sequential(nn.Linear(len(NUM_COLS) + 8, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, num, cat):
        h = torch.cat([num, self.seg(cat[:, 0]), self.reg(cat[:, 1])], 1)
        return self.mlp(h).squeeze(1)


def main():
    df = load_feature_table(30_000, 0)
    train_df, val_df = df.iloc[:25_000], df.iloc[25_000:]
    train_dl = DataLoader(FeatureTable(train_df), batch_size=512, shuffle=True)
    val_dl = DataLoader(FeatureTable(val_df), batch_size=2048)
    model = DefaultMLP()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(2):
        model.train(); t0 = time.time()
        for step, (num, cat, y) in enumerate(train_dl):
            loss = nn.functional.binary_cross_entropy_with_logits(model(num, cat), y)
            opt.zero_grad(); loss.backward(); opt.step()
            if step % 25 == 0:
                rate = (step + 1) * 512 / (time.time() - t0)
                print(f"epoch {epoch} step {step:3d}/{len(train_dl)} loss {loss.item():.4f} {rate:.0f} rows/s", flush=True)
        model.eval(); correct = 0
        with torch.no_grad():
            for num, cat, y in val_dl:
                correct += ((model(num, cat) > 0).float() == y).sum().item()
        print(f"epoch {epoch} done in {time.time() - t0:.1f}s val_acc {correct / len(val_df):.3f}", flush=True)


if __name__ == "__main__":
    main()
