import os
os.environ["KERAS_BACKEND"] = "torch"

import keras
import torch

x1 = torch.tensor([1.0, 2.0], requires_grad=True)
x2 = torch.tensor([0.0, 2.0], requires_grad=True)

y = keras.ops.divide_no_nan(x1, x2)
print("y:", y)

y.sum().backward()
print("x1.grad:", x1.grad)
print("x2.grad:", x2.grad)
print("finite:", torch.isfinite(x1.grad), torch.isfinite(x2.grad))
