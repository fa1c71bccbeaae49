import torch
import torch.nn as nn
import time
print(torch.backends.cudnn.version())
print(torch.__version__)

tpconv = nn.ConvTranspose1d(256, 256, stride=15, kernel_size=33).cuda()
x = torch.ones((2, 256,  10 * 1000)).cuda()

torch.backends.cudnn.deterministic = False
torch.cuda.synchronize()
start = time.time()
a = 0
for i in range(100):
    a += tpconv(x)
torch.cuda.synchronize()
end = time.time()
print(f"time cost: {end - start}")

torch.backends.cudnn.deterministic = True
torch.cuda.synchronize()
start = time.time()
a = 0
for i in range(100):
    a += tpconv(x)
torch.cuda.synchronize()
end = time.time()
print(f"time cost: {end - start}")
