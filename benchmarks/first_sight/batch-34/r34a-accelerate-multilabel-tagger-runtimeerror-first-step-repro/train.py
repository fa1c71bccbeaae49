"""Multi-label topic tagger for support articles (bag-of-features MLP) trained with accelerate."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset

NUM_FEATS = 512
NUM_TAGS = 12
SEED = 7


def make_articles(n, proto, rng):
    """Synthetic articles: each tag adds its own feature prototype, plus noise."""
    feats, tags = [], []
    for _ in range(n):
        k = rng.integers(1, 4)
        t = rng.choice(NUM_TAGS, size=k, replace=False)
        x = proto[t].sum(0) + rng.normal(0, 2.0, size=NUM_FEATS).astype(np.float32)
        feats.append(x)
        tags.append(sorted(t.tolist()))
    return np.stack(feats), tags


class ArticleDataset(Dataset):
    def __init__(self, feats, tags):
        self.x = torch.from_numpy(feats)
        self.tags = tags

    def __len__(self):
        return len(self.tags)

    def __getitem__(self, i):
        target = F.one_hot(torch.tensor(self.tags[i]), NUM_TAGS).sum(0).clamp(max=1)
        return self.x[i], target


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(NUM_FEATS, 256), nn.GELU(), nn.Dropout(0.1),
                                 nn.Linear(256, 128), nn.GELU(), nn.Linear(128, NUM_TAGS))

    def forward(self, x):
        return self.net(x)


def micro_f1(logits, target):
    pred = (logits.sigmoid() > 0.5).float()
    target = target.float()
    tp = (pred * target).sum()
    return (2 * tp / (pred.sum() + target.sum()).clamp(min=1)).item()


def main():
    accelerator = Accelerator()
    rng = np.random.default_rng(SEED)
    torch.manual_seed(SEED)
    proto = rng.normal(0, 0.3, size=(NUM_TAGS, NUM_FEATS)).astype(np.float32)
    tr_x, tr_t = make_articles(8000, proto, rng)
    va_x, va_t = make_articles(1000, proto, rng)
    train_dl = DataLoader(ArticleDataset(tr_x, tr_t), batch_size=64, shuffle=True)
    val_dl = DataLoader(ArticleDataset(va_x, va_t), batch_size=256)
    model = Tagger()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    criterion = nn.BCEWithLogitsLoss()
    model, opt, train_dl, val_dl = accelerator.prepare(model, opt, train_dl, val_dl)
    accelerator.print(f"device={accelerator.device} train={len(tr_t)} val={len(va_t)} tags={NUM_TAGS}")

    for epoch in range(4):
        model.train()
        running = 0.0
        for step, (x, y) in enumerate(train_dl):
            logits = model(x)
            loss = criterion(logits, y)
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
            running += loss.item()
            if step % 40 == 0:
                accelerator.print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
        model.eval()
        all_logits, all_y = [], []
        with torch.no_grad():
            for x, y in val_dl:
                lg, yy = accelerator.gather_for_metrics((model(x), y))
                all_logits.append(lg)
                all_y.append(yy)
        f1 = micro_f1(torch.cat(all_logits), torch.cat(all_y))
        accelerator.print(f"epoch {epoch} train_loss {running / len(train_dl):.4f} val_micro_f1 {f1:.4f}")


if __name__ == "__main__":
    main()
