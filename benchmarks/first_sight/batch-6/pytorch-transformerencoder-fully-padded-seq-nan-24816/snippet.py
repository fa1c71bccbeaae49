import torch
import torch.nn as nn

enc = nn.TransformerEncoderLayer(3,1)
model = nn.TransformerEncoder(enc, 6)

x = torch.Tensor([[[1,2,3],[0,5,6]],[[-1,-2,0],[-4,-5,0]],[[1,2,3],[0,5,6]],[[-1,-2,0],[-4,-5,0]]])
y = torch.tensor([[0,0],[1,0],[1,1],[1,1]]).bool()
print(x.size())
print(y.size())
print(y)
output = model(src=x.transpose(0,1), src_key_padding_mask=y).transpose(0,1)
print(output)
