import torch
from torch.autograd import grad, Variable
from torchvision import models

model = models.resnet50().cuda()
for k in range(20):
    x   = Variable(torch.rand(8, 3, 224, 224).cuda(), requires_grad=True)
    dx, = grad(model(x).sum(), x, create_graph=True)
    # works without leak:
    # y = model(x + dx).sum()
    # leaks memory every iteration:
    y = dx.mean()
    y.backward()
