    def training_step(self, batch, batch_idx):
        x, y = batch
        x.requires_grad = True

        logit = self(x)
        loss = F.cross_entropy(logit, y, reduction="mean")

        grad1 = torch.autograd.grad(loss, x, retain_graph=True, create_graph=True)[0]
        v = torch.randn_like(x)
        grad2 = torch.autograd.grad(torch.einsum("nchw,nchw->n", grad1, v).sum(), x, retain_graph=True)[0]

        print(grad2.flatten()[:10])

        return loss
