"""Defect segmentation on synthetic 48x48 inspection crops; final test score uses flip TTA."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

H = W = 48
EPOCHS = 4
BATCH = 32


def make_crops(n, g):
    yy, xx = torch.meshgrid(torch.arange(H).float(), torch.arange(W).float(), indexing="ij")
    masks = torch.zeros(n, 1, H, W)
    for k in range(2):
        cy = torch.rand(n, 1, 1, generator=g) * H
        cx = torch.rand(n, 1, 1, generator=g) * W * 0.6
        ry = 3 + 6 * torch.rand(n, 1, 1, generator=g)
        rx = 3 + 6 * torch.rand(n, 1, 1, generator=g)
        masks[:, 0] = torch.maximum(masks[:, 0], ((((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2) < 1).float())
    texture = 0.4 * torch.sin(xx / 3)[None, None] + 0.8 * torch.randn(n, 1, H, W, generator=g)
    imgs = masks * 1.5 + texture
    return imgs, masks


class SegNet(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(),
            nn.Conv2d(c, c, 3, padding=2, dilation=2), nn.BatchNorm2d(c), nn.ReLU(),
            nn.Conv2d(c, c, 3, padding=4, dilation=4), nn.BatchNorm2d(c), nn.ReLU(),
            nn.Conv2d(c, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(),
            nn.Conv2d(c, 1, 1))

    def forward(self, x):
        return self.body(x)


def iou(prob, mask):
    pred = prob > 0.5
    gt = mask > 0.5
    inter = (pred & gt).sum().item()
    union = (pred | gt).sum().item()
    return inter / max(union, 1)


@torch.no_grad()
def predict(model, x):
    model.eval()
    return torch.sigmoid(model(x))


@torch.no_grad()
def predict_tta(model, x):
    model.eval()
    p = torch.sigmoid(model(x))
    p_flip = torch.sigmoid(model(torch.flip(x, dims=[-1])))
    return (p + p_flip) / 2


def main():
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    x_tr, m_tr = make_crops(2000, g)
    x_va, m_va = make_crops(500, g)
    x_te, m_te = make_crops(500, g)
    model = SegNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    pos_weight = torch.tensor([(1 - m_tr.mean()) / m_tr.mean()]).sqrt()
    t0 = time.time()
    for epoch in range(EPOCHS):
        model.train()
        perm = torch.randperm(len(x_tr))
        for i in range(0, len(perm), BATCH):
            idx = perm[i:i + BATCH]
            loss = F.binary_cross_entropy_with_logits(model(x_tr[idx]), m_tr[idx], pos_weight=pos_weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f} val_iou {iou(predict(model, x_va), m_va):.4f} "
              f"({time.time() - t0:.0f}s)", flush=True)

    print(f"test_iou (flip TTA) {iou(predict_tta(model, x_te), m_te):.4f}")


if __name__ == "__main__":
    main()
