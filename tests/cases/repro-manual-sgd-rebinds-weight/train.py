"""Linear regression from scratch with autograd, written as in a first tutorial."""
import torch

torch.manual_seed(0)
x = torch.randn(200, 3)
y = x @ torch.tensor([2.0, -1.0, 0.5]) + 0.3
w = torch.zeros(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.1
for step in range(50):
    pred = x @ w + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    w = w - lr * w.grad
    b = b - lr * b.grad
    if step % 10 == 0:
        print(f"step {step} loss {loss.item():.4f}")
