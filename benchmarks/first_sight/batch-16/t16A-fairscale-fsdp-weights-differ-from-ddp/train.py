import torch
import torch.distributed as dist
import torch.nn as nn
import torch.multiprocessing as mp

from torch.nn.parallel import DistributedDataParallel as DDP
from fairscale.nn.data_parallel import ShardedDataParallel as ShardedDDP
from fairscale.optim.oss import OSS
from fairscale.nn.data_parallel import FullyShardedDataParallel as FSDP
import os

class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.net1 = []
        for k in range(4):
            self.net1.append(nn.Linear(10,10))
            self.net1[-1].weight.data = torch.ones_like(self.net1[-1].weight.data)
            self.net1[-1].bias.data = torch.ones_like(self.net1[-1].bias.data)
            self.net1.append(nn.LeakyReLU(negative_slope=0.1))
        self.net1 = nn.Sequential(*self.net1)


    def forward(self, x):
        return self.net1(x)

class Discrim(nn.Module):
    def __init__(self):
        super(Discrim, self).__init__()
        self.net1 = []
        for k in range(4):
            self.net1.append(nn.Linear(10, 10))
            # ...
