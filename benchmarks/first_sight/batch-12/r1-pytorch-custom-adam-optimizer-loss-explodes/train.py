"""Activity recognition from wrist IMU windows.

We need per-parameter-group control of the optimizer state for the on-device
fine-tuning code, so Adam is re-implemented here (same maths as torch.optim.Adam).
"""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader

torch.manual_seed(0)
N_CLASSES, WIN, CH = 6, 64, 6
AXIS_MIX = torch.rand(N_CLASSES, CH) + 0.2   # per-activity axis amplitudes


def make_imu(n):
    """Synthetic 6-axis IMU windows: each activity has its own dominant frequency/axis mix."""
    y = torch.randint(0, N_CLASSES, (n,))
    t = torch.arange(WIN).float() / 32.0
    freq = 0.5 + y.float()[:, None, None] * 0.6
    phase = torch.rand(n, CH, 1) * 6.28
    amp = AXIS_MIX[y][:, :, None]
    x = amp * torch.sin(6.28 * freq * t[None, None, :] + phase) + 0.3 * torch.randn(n, CH, WIN)
    return x, y


class SimpleAdam(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            b1, b2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                st = self.state[p]
                if not st:
                    st["t"] = 0
                    st["m"] = torch.zeros_like(p)
                    st["v"] = torch.zeros_like(p)
                st["t"] += 1
                g = p.grad
                st["m"].mul_(b1).add_(g, alpha=1 - b1)
                st["v"].mul_(b2).addcmul_(g, g, value=1 - b2)
                m_hat = st["m"] / (1 - b1 ** st["t"])
                v_hat = st["v"] / (1 - b2 ** st["t"])
                p.addcdiv_(m_hat, v_hat + group["eps"], value=-group["lr"])


class HARNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(CH, 32, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(32, 64, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
        )
        self.head = nn.Linear(64, N_CLASSES)

    def forward(self, x):
        return self.head(self.conv(x).flatten(1))


def main():
    xtr, ytr = make_imu(6000)
    xva, yva = make_imu(1500)
    train_dl = DataLoader(TensorDataset(xtr, ytr), batch_size=64, shuffle=True)
    model = HARNet()
    opt = SimpleAdam(model.parameters(), lr=1e-3)

    for epoch in range(5):
        model.train()
        run, n = 0.0, 0
        for i, (xb, yb) in enumerate(train_dl):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item(); n += 1
            if i % 20 == 0:
                print(f"epoch {epoch} iter {i:3d} loss {loss.item():.4f}")
        model.eval()
        with torch.no_grad():
            acc = (model(xva).argmax(1) == yva).float().mean().item()
        print(f"== epoch {epoch} mean train loss {run / n:.4f}  val acc {acc:.3f}")


if __name__ == "__main__":
    main()
