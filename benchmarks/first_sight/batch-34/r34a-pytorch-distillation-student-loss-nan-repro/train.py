"""Knowledge distillation: wide MLP teacher -> small MLP student on a 10-class tabular task."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

N_FEAT, N_CLASS = 40, 10
T = 4.0
ALPHA = 0.7


def make_data(n, g, centers):
    y = torch.randint(0, N_CLASS, (n,), generator=g)
    x = centers[y] + 1.2 * torch.randn(n, N_FEAT, generator=g)
    x = x + 0.3 * torch.sin(3 * x[:, torch.randperm(N_FEAT, generator=g)])
    return x, y


def mlp(width, depth):
    layers, d = [], N_FEAT
    for _ in range(depth):
        layers += [nn.Linear(d, width), nn.ReLU()]
        d = width
    return nn.Sequential(*layers, nn.Linear(d, N_CLASS))


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    model.train()
    return acc


def kd_loss(student_logits, teacher_logits, y):
    soft = F.kl_div(F.log_softmax(student_logits / T, dim=1),
                    F.log_softmax(teacher_logits / T, dim=1),
                    reduction="batchmean") * T * T
    hard = F.cross_entropy(student_logits, y)
    return ALPHA * soft + (1 - ALPHA) * hard, soft, hard


def main():
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    centers = torch.randn(N_CLASS, N_FEAT, generator=g)
    x_tr, y_tr = make_data(20000, g, centers)
    x_va, y_va = make_data(4000, g, centers)
    dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=128, shuffle=True)

    teacher = mlp(512, 3)
    opt = torch.optim.Adam(teacher.parameters(), lr=1e-3)
    for epoch in range(3):
        for xb, yb in dl:
            loss = F.cross_entropy(teacher(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"teacher epoch {epoch} loss {loss.item():.4f} val_acc {accuracy(teacher, x_va, y_va):.4f}")
    teacher.eval()

    student = mlp(32, 1)
    opt = torch.optim.Adam(student.parameters(), lr=3e-3)
    for epoch in range(5):
        for step, (xb, yb) in enumerate(dl):
            with torch.no_grad():
                t_logits = teacher(xb)
            loss, soft, hard = kd_loss(student(xb), t_logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step % 50 == 0:
                print(f"student epoch {epoch} step {step} loss {loss.item():.4f} "
                      f"(kd {soft.item():.4f}, ce {hard.item():.4f})")
        print(f"student epoch {epoch} val_acc {accuracy(student, x_va, y_va):.4f}")


if __name__ == "__main__":
    main()
