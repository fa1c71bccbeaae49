"""Add a second head (line-B sorting-bin classifier) to the shared inspection backbone.

Stage 1 (normally a separate job, re-run here for the report): backbone + part-type head
trained on line-A camera crops. Stage 2: backbone frozen, new bin head trained on line-B
crops. The part-type head must keep working exactly as before (it is in production).
"""
import hashlib
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
S = 24


def shapes(n, gain, offset, g):
    """4 part types (h-bar, v-bar, ring, cross); bin = bars -> 0, ring/cross -> 1; camera gain/offset."""
    yy, xx = torch.meshgrid(torch.arange(S), torch.arange(S), indexing="ij")
    cls = torch.randint(0, 4, (n,), generator=g)
    imgs = torch.zeros(n, 1, S, S)
    for i in range(n):
        cx, cy = torch.randint(8, 16, (2,), generator=g).tolist()
        if cls[i] == 0:
            m = ((yy - cy).abs() <= 1) & ((xx - cx).abs() <= 7)
        elif cls[i] == 1:
            m = ((xx - cx).abs() <= 1) & ((yy - cy).abs() <= 7)
        elif cls[i] == 2:
            r = ((yy - cy) ** 2 + (xx - cx) ** 2).float().sqrt()
            m = (r > 4) & (r < 6.5)
        else:
            m = (((yy - cy).abs() <= 1) & ((xx - cx).abs() <= 6)) | (((xx - cx).abs() <= 1) & ((yy - cy).abs() <= 6))
        imgs[i, 0] = m.float()
    imgs = gain * (imgs + 0.15 * torch.randn(imgs.shape, generator=g)) + offset
    return imgs, cls, (cls >= 2).long()


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
            nn.Flatten())

    def forward(self, x):
        return self.net(x)


class InspectionNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.part_head = nn.Linear(64, 4)
        self.bin_head = nn.Linear(64, 2)

    def forward(self, x):
        f = self.backbone(x)
        return self.part_head(f), self.bin_head(f)


def accuracy(model, x, y, head):
    model.eval()
    with torch.no_grad():
        logits = model(x)[head]
    return (logits.argmax(1) == y).float().mean().item()


def checksum(module):
    h = hashlib.md5()
    for p in module.parameters():
        h.update(p.detach().numpy().tobytes())
    return h.hexdigest()[:12]


g = torch.Generator().manual_seed(1)
xa_tr, ya_tr, _ = shapes(3000, gain=1.0, offset=0.0, g=g)        # line A camera
xa_te, ya_te, _ = shapes(800, gain=1.0, offset=0.0, g=g)
xb_tr, _, sb_tr = shapes(3000, gain=2.5, offset=0.8, g=g)       # line B camera: brighter, more gain
xb_te, _, sb_te = shapes(800, gain=2.5, offset=0.8, g=g)

model = InspectionNet()

# ---- stage 1: backbone + part-type head on line A ----
opt = torch.optim.Adam(list(model.backbone.parameters()) + list(model.part_head.parameters()), lr=2e-3)
for epoch in range(4):
    model.train()
    for xb, yb in DataLoader(TensorDataset(xa_tr, ya_tr), batch_size=64, shuffle=True):
        loss = F.cross_entropy(model(xb)[0], yb)
        opt.zero_grad(); loss.backward(); opt.step()
    print(f"[stage1] epoch {epoch} loss {loss.item():.4f} part-type acc (line A test) {accuracy(model, xa_te, ya_te, 0):.3f}")
acc_part_before = accuracy(model, xa_te, ya_te, 0)
sum_before = checksum(model.backbone)
print(f"[stage1] done: part-type acc {acc_part_before:.3f}  backbone checksum {sum_before}")

# ---- stage 2: freeze backbone, train bin head on line B ----
for p in model.backbone.parameters():
    p.requires_grad_(False)
opt = torch.optim.Adam(model.bin_head.parameters(), lr=5e-3)
for epoch in range(4):
    model.train()
    for xb, yb in DataLoader(TensorDataset(xb_tr, sb_tr), batch_size=64, shuffle=True):
        loss = F.cross_entropy(model(xb)[1], yb)
        opt.zero_grad(); loss.backward(); opt.step()
    print(f"[stage2] epoch {epoch} loss {loss.item():.4f} bin acc (line B test) {accuracy(model, xb_te, sb_te, 1):.3f}")

print(f"[stage2] trainable params: {sum(p.numel() for p in model.parameters() if p.requires_grad)}")
print(f"[stage2] backbone checksum {checksum(model.backbone)} (before: {sum_before})")
acc_part_after = accuracy(model, xa_te, ya_te, 0)
print(f"[regression check] part-type acc on line A: before {acc_part_before:.3f}  after {acc_part_after:.3f}")
if acc_part_after < acc_part_before - 0.02:
    print("[regression check] FAILED: production head degraded although the backbone was frozen")
