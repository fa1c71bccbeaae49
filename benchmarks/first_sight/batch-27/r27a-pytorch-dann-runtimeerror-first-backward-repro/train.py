"""Domain-adversarial training (DANN) for the vibration fault classifier.

Source domain: labelled windows from test rig A.
Target domain: unlabelled windows from the production line (different sensor gain / offset).
"""
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
N_FEAT, N_CLASSES = 64, 5
EPOCHS, BATCH, LR = 6, 128, 1e-3


def make_domain(n, gain, offset, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    centers = torch.randn(N_CLASSES, N_FEAT, generator=torch.Generator().manual_seed(123)) * 0.3
    x = centers[y] + torch.randn(n, N_FEAT, generator=g)
    return x * gain + offset, y


class GradReverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lambd):
        ctx.lambd = lambd
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.neg() * ctx.lambd


class DANN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Linear(N_FEAT, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU()
        )
        self.label_head = nn.Linear(128, N_CLASSES)
        self.domain_head = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, x, lambd=0.0):
        h = self.features(x)
        return self.label_head(h), self.domain_head(GradReverse.apply(h, lambd))


def main():
    xs, ys = make_domain(8000, 1.0, 0.0, 1)
    xt, yt = make_domain(8000, 1.6, 0.8, 2)  # yt only used for reporting
    src = DataLoader(TensorDataset(xs, ys), batch_size=BATCH, shuffle=True, drop_last=True)
    tgt = DataLoader(TensorDataset(xt), batch_size=BATCH, shuffle=True, drop_last=True)

    model = DANN()
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    total = EPOCHS * len(src)
    step = 0
    print(f"source={len(xs)} target={len(xt)} steps/epoch={len(src)}")
    for epoch in range(EPOCHS):
        model.train()
        t0 = time.time()
        for (xb, yb), (xtb,) in zip(src, tgt):
            p = step / total
            lambd = 2.0 / (1.0 + math.exp(-10 * p)) - 1.0
            x = torch.cat([xb, xtb])
            dom = torch.cat([torch.zeros(len(xb)), torch.ones(len(xtb))]).long()
            cls_logits, dom_logits = model(x, lambd)
            loss_cls = F.cross_entropy(cls_logits[: len(xb)], yb)
            loss_dom = F.cross_entropy(dom_logits, dom)
            loss = loss_cls + loss_dom
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 20 == 0:
                print(f"epoch {epoch} step {step} lambda={lambd:.3f} "
                      f"loss_cls={loss_cls.item():.4f} loss_dom={loss_dom.item():.4f}")
            step += 1
        model.eval()
        with torch.no_grad():
            acc_s = (model(xs)[0].argmax(1) == ys).float().mean().item()
            acc_t = (model(xt)[0].argmax(1) == yt).float().mean().item()
        print(f"epoch {epoch} done in {time.time()-t0:.1f}s  src_acc={acc_s:.3f} tgt_acc={acc_t:.3f}")
    torch.save(model.state_dict(), "dann.pt")


if __name__ == "__main__":
    main()
