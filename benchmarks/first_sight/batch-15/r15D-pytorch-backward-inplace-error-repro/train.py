import time
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

torch.manual_seed(0)

NUM_TAGS = 20
FEAT_DIM = 64


class TaggingDataset(Dataset):
    """Synthetic multi-label tagging data. Some tags are not annotated for some
    samples (annotation = -1), those should not contribute to the loss."""

    def __init__(self, n, proj):
        self.x = torch.randn(n, FEAT_DIM)
        logits = self.x @ proj
        tags = (logits > 0.5).float()
        unlabeled = torch.rand(n, NUM_TAGS) < 0.15
        tags[unlabeled] = -1.0
        self.y = tags

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(FEAT_DIM, 256),
            nn.GELU(),
            nn.Dropout(0.1),
            nn.Linear(256, 256),
            nn.GELU(),
            nn.Linear(256, NUM_TAGS),
        )

    def forward(self, x):
        return self.net(x)


def main():
    proj = torch.randn(FEAT_DIM, NUM_TAGS) / FEAT_DIM ** 0.5
    train_ds = TaggingDataset(8000, proj)
    loader = DataLoader(train_ds, batch_size=64, shuffle=True)

    model = Tagger()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    bce = nn.BCELoss()

    print(f"torch {torch.__version__}, {len(train_ds)} samples, {NUM_TAGS} tags")
    for epoch in range(3):
        model.train()
        t0 = time.time()
        running = 0.0
        for step, (x, y) in enumerate(loader):
            probs = torch.sigmoid(model(x))
            known = y >= 0
            probs[~known] = 0.0
            target = torch.where(known, y, torch.zeros_like(y))
            loss = bce(probs, target)

            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
            if step % 50 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
        print(f"epoch {epoch} mean loss {running / (step + 1):.4f} ({time.time() - t0:.1f}s)")


if __name__ == "__main__":
    main()
