import torch
import torch.nn as nn

torch.backends.cudnn.enabled = True
x = torch.rand(65536, 1, 1, 1).cuda()
bn = nn.BatchNorm2d(1)

bn.cuda()
bn.eval()
y = bn(x)
print(y.size())
