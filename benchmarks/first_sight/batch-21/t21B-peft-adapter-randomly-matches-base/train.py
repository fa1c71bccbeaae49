import peft
import torch
import matplotlib.pyplot as plt

from copy import deepcopy
from pathlib import Path
from peft import get_peft_model, LoraConfig, PeftModel
from typing import Any

print(peft.__version__) # 0.14.0

# ============== Setup ============== #

# Define a simple network
class Network(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(1, 1)
        self.b = torch.nn.Linear(1, 1)
    
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.a(x)
        y = self.b(y)
        return y
    
# Load the network    
net = Network()
for name, param in net.named_parameters():
    param.requires_grad = False
