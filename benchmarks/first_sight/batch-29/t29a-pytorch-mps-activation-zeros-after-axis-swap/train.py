import torch
import torch.nn.functional as F

x_cpu = torch.linspace(-1, 1, 6, device=torch.device('cpu')).view((2, 3))
x_mps = torch.linspace(-1, 1, 6, device=torch.device('mps')).view((2, 3))

print(F.softplus(x_cpu.moveaxis(0, 1)))
print(F.softplus(x_cpu).moveaxis(0, 1))
print(F.softplus(x_mps.moveaxis(0, 1)))
print(F.softplus(x_mps).moveaxis(0, 1))
