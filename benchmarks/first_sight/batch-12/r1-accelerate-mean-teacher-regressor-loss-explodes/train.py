"""Semi-supervised (mean-teacher) regressor: crop yield from multispectral field features.

Only 400 plots have measured yield; 8000 more plots are unlabelled. The student is
trained on the labelled MSE plus a consistency loss against an EMA teacher.
accelerate launch train.py
"""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader
from accelerate import Accelerator
from accelerate.utils import set_seed

set_seed(0)
D = 24
EMA_DECAY = 0.99
CONS_WEIGHT = 1.0


def make_plots(n, g):
    x = torch.randn(n, D, generator=g)
    w = torch.linspace(-1, 1, D)
    y = (x @ w) / 3 + 0.5 * torch.tanh(x[:, 0] * x[:, 1]) + 0.1 * torch.randn(n, generator=g)
    return x, y[:, None]


def mlp():
    return nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))


@torch.no_grad()
def update_teacher(teacher, student, decay):
    for t, s in zip(teacher.parameters(), student.parameters()):
        t.mul_(decay).add_(s)


def main():
    accelerator = Accelerator()
    g = torch.Generator().manual_seed(0)
    xl, yl = make_plots(400, g)
    xu, _ = make_plots(8000, g)
    xv, yv = make_plots(2000, g)
    lab_dl = DataLoader(TensorDataset(xl, yl), batch_size=32, shuffle=True, drop_last=True)
    unl_dl = DataLoader(TensorDataset(xu), batch_size=128, shuffle=True, drop_last=True)

    student = mlp()
    teacher = copy.deepcopy(student)
    for p in teacher.parameters():
        p.requires_grad_(False)
    optimizer = torch.optim.Adam(student.parameters(), lr=1e-3)
    student, teacher, optimizer, lab_dl, unl_dl = accelerator.prepare(student, teacher, optimizer, lab_dl, unl_dl)

    step = 0
    for epoch in range(4):
        lab_iter = iter(lab_dl)
        for (xu_b,) in unl_dl:
            try:
                xl_b, yl_b = next(lab_iter)
            except StopIteration:
                lab_iter = iter(lab_dl)
                xl_b, yl_b = next(lab_iter)
            sup = F.mse_loss(student(xl_b), yl_b)
            noisy_s = xu_b + 0.1 * torch.randn_like(xu_b)
            noisy_t = xu_b + 0.1 * torch.randn_like(xu_b)
            with torch.no_grad():
                target = teacher(noisy_t)
            cons = F.mse_loss(student(noisy_s), target)
            loss = sup + CONS_WEIGHT * cons
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
            update_teacher(accelerator.unwrap_model(teacher), accelerator.unwrap_model(student), EMA_DECAY)
            if step % 10 == 0:
                accelerator.print(f"epoch {epoch} step {step:3d}  sup {sup.item():.4g}  cons {cons.item():.4g}  total {loss.item():.4g}")
            step += 1
        with torch.no_grad():
            vs = F.mse_loss(student(xv), yv).item()
            vt = F.mse_loss(teacher(xv), yv).item()
        accelerator.print(f"== epoch {epoch}  val_mse student {vs:.4g}  teacher {vt:.4g}")


if __name__ == "__main__":
    main()
