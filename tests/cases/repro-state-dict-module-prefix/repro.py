"""Broken on purpose: the checkpoint was saved from a DistributedDataParallel-wrapped
model (keys start with 'module.') and is loaded into the bare model."""
import os
import tempfile

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.fc = nn.Linear(8, 10)
    def forward(self, x):
        return self.fc(self.conv(x).mean((2, 3)))

class Wrapper(nn.Module):          # stands in for DDP / DataParallel, which keep the model as .module
    def __init__(self, module):
        super().__init__()
        self.module = module

path = os.path.join(tempfile.mkdtemp(), "ckpt.pt")
torch.save(Wrapper(Net()).state_dict(), path)
print("saved checkpoint with keys:", list(torch.load(path).keys())[:2], flush=True)
model = Net()
model.load_state_dict(torch.load(path))
