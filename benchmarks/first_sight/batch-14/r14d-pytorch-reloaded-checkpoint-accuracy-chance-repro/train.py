import time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(2)

N_BANDS = 64          # spectral bands per pixel
CLASSES = ["water", "forest", "cropland", "urban", "bare_soil", "wetland", "grassland"]


def make_pixels(n, rng, prototypes):
    y = rng.integers(0, len(CLASSES), n)
    scale = rng.uniform(0.7, 1.3, (n, 1))              # illumination
    x = prototypes[y] * scale + 1.6 * rng.normal(size=(n, N_BANDS))
    return x.astype(np.float32), y.astype(np.int64)


class DenseBlock(nn.Module):
    def __init__(self, dim, p_drop=0.1):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)
        self.drop = nn.Dropout(p_drop)

    def forward(self, x):
        return self.drop(F.gelu(self.norm(self.fc(x))))


class SpectralNet(nn.Module):
    def __init__(self, n_in, n_classes, dim=128, depth=4):
        super().__init__()
        self.stem = nn.Linear(n_in, dim)
        self.blocks = []
        for _ in range(depth):
            self.blocks.append(DenseBlock(dim))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        h = self.stem(x)
        for blk in self.blocks:
            h = blk(h)
        return self.head(self.norm(h))


@torch.no_grad()
def accuracy(model, x, y):
    model.eval()
    return (model(x).argmax(1) == y).float().mean().item()


def main():
    torch.manual_seed(0)
    rng = np.random.default_rng(5)
    prototypes = np.cumsum(rng.normal(0, 0.25, (len(CLASSES), N_BANDS)), axis=1)
    x_tr, y_tr = make_pixels(20000, rng, prototypes)
    x_va, y_va = make_pixels(4000, rng, prototypes)
    x_tr, y_tr, x_va, y_va = map(torch.from_numpy, (x_tr, y_tr, x_va, y_va))

    model = SpectralNet(N_BANDS, len(CLASSES))
    print(f"model parameters: {sum(p.numel() for p in model.parameters()):,}")
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.05)
    loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=256, shuffle=True)

    for epoch in range(1, 11):
        model.train()
        t0, tot = time.time(), 0.0
        for xb, yb in loader:
            opt.zero_grad()
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
        print(f"epoch {epoch} | train_loss {tot / len(x_tr):.4f} | "
              f"val_acc {accuracy(model, x_va, y_va):.4f} | {time.time() - t0:.1f}s")

    final_acc = accuracy(model, x_va, y_va)
    torch.save(model.state_dict(), "spectralnet.pt")
    print(f"saved spectralnet.pt (val_acc {final_acc:.4f})")

    # ---- separate inference job: rebuild the network and load the weights ----
    deployed = SpectralNet(N_BANDS, len(CLASSES))
    result = deployed.load_state_dict(torch.load("spectralnet.pt"))
    print("load_state_dict:", result)
    print(f"reloaded model val_acc {accuracy(deployed, x_va, y_va):.4f}")
    counts = torch.bincount(deployed(x_va).argmax(1), minlength=len(CLASSES)).tolist()
    print("reloaded model prediction counts per class:", dict(zip(CLASSES, counts)))


if __name__ == "__main__":
    main()
