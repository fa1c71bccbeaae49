from __future__ import print_function

import torch
from torch.autograd import Variable
import torch.nn as nn


i = 0
while True:
    if i % 1000 == 0:
        print(i)
    i += 1
    x = Variable(torch.randn(2, 2).cuda(), requires_grad=True)
    y = Variable(torch.randn(2, 2).cuda(), requires_grad=True)

    z = x ** 2 + y * x + y ** 2
    z.backward(Variable(torch.ones(2, 2).cuda(), requires_grad=True), retain_variables=True)

    x_grad = 2 * x.data + y.data
    y_grad = x.data + 2 * y.data

    grad_sum = 2 * x.grad + y.grad
    grad_sum = grad_sum[:, :-1]
    grad_sum.backward(torch.ones(2, 1).cuda())  # leaks memory
