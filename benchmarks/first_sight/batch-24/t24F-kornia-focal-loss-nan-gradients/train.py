import torch
from kornia.losses import binary_focal_loss_with_logits

prediction=torch.tensor([[-100.,-100.,100.,100.]], requires_grad=True)
target = torch.tensor([[0.,1.,0.,1.]])
loss = binary_focal_loss_with_logits(prediction, target, gamma=0.5, reduction='mean')
loss.backward()
print(prediction.grad)
