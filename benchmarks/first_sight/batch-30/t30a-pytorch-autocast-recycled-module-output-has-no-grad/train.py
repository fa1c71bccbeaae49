import torch
import torch.nn as nn

class RecycledLinear(nn.Module):
    def __init__(self, no_cycles):
        super(RecycledLinear, self).__init__()

        self.no_cycles = no_cycles
        self.linear = nn.Linear(10, 10)

    def forward(self, inp):
        out = inp
        for i in range(self.no_cycles):
            with torch.set_grad_enabled(i == (self.no_cycles - 1)):
                out = self.linear(out)

        return out


no_cycles = 2
x = torch.rand(10, 10, requires_grad=False).cuda()
model = RecycledLinear(no_cycles).cuda()

with torch.cuda.amp.autocast():
    out = model(x)

print(out.requires_grad)
