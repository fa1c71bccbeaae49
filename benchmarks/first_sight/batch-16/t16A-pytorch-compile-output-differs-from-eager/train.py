import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, inp1, inp2, inp3, inp4):
        res1 = torch.prod(input=inp1)
        temp1 = torch.fmin(input=inp4, other=inp3, out=inp2)
        temp2 = torch._C._special.special_entr(input=temp1, out=inp1)
        res2 = torch.full_like(fill_value=6, input=temp2, requires_grad=True)
        return res1, res2

model = Model().to(torch.device("cpu"))
inputs = {
    "inp1" : torch.rand([1, 1, 1, 1, 1, 1], dtype=torch.float32),
    "inp2" : torch.rand([2, 4], dtype=torch.float32),
    # ... inp3, inp4
}
# ... then eager vs torch.compile(model) comparison on `inputs`
