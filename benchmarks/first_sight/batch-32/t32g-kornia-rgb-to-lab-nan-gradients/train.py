x_new = kornia.color.rgb_to_lab(x)
grad = torch.autograd.grad(x_new.sum(), x)[0].detach()
