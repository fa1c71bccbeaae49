"""Multi-label tagger for support tickets (bag-of-features input) with focal loss."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

N_TRAIN, N_VAL, D, N_TAGS = 12000, 2000, 256, 12
EPOCHS = 15
BATCH = 256
LR = 3e-3


def make_split(n, proj):
    x = torch.randn(n, D)
    scores = x @ proj
    y = (scores > 1.0).float()
    return x, y


class FocalLoss(nn.Module):
    """Sigmoid focal loss (Lin et al. 2017) for multi-label targets."""

    def __init__(self, alpha=0.25, gamma=2.0):
        super().__init__()
        self.alpha = alpha
        self.gamma = gamma

    def forward(self, logits, targets):
        p = torch.sigmoid(logits)
        ce = -(targets * torch.log(p) + (1 - targets) * torch.log(1 - p))
        p_t = p * targets + (1 - p) * (1 - targets)
        alpha_t = self.alpha * targets + (1 - self.alpha) * (1 - targets)
        loss = alpha_t * (1 - p_t) ** self.gamma * ce
        return loss.mean()


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(D, 512), nn.GELU(), nn.Linear(512, 256), nn.GELU())
        self.head = nn.Linear(256, N_TAGS)

    def forward(self, x):
        return self.head(self.body(x))


@torch.no_grad()
def micro_f1(model, x, y):
    model.eval()
    pred = (model(x) > 0).float()
    model.train()
    tp = (pred * y).sum()
    fp = (pred * (1 - y)).sum()
    fn = ((1 - pred) * y).sum()
    return (2 * tp / (2 * tp + fp + fn)).item()


def main():
    proj = torch.randn(D, N_TAGS) / D ** 0.5 * 2.0
    xtr, ytr = make_split(N_TRAIN, proj)
    xva, yva = make_split(N_VAL, proj)
    print(f"train={N_TRAIN} val={N_VAL} tags={N_TAGS} positive_rate={ytr.mean():.3f}")

    loader = DataLoader(TensorDataset(xtr, ytr), batch_size=BATCH, shuffle=True, drop_last=True)
    model = Tagger()
    opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=EPOCHS * len(loader))
    crit = FocalLoss()

    step = 0
    for epoch in range(EPOCHS):
        total, nb = 0.0, 0
        for xb, yb in loader:
            logits = model(xb)
            loss = crit(logits, yb)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            total += loss.item()
            nb += 1
            if step % 50 == 0:
                print(f"  step {step:5d} loss {loss.item():.6f} max|logit| {logits.abs().max().item():.1f} "
                      f"lr {sched.get_last_lr()[0]:.2e}")
        print(f"epoch {epoch:2d} mean_loss {total / nb:.6f} val_micro_f1 {micro_f1(model, xva, yva):.4f}")

    torch.save(model.state_dict(), "/tmp/tagger.pt")


if __name__ == "__main__":
    main()
