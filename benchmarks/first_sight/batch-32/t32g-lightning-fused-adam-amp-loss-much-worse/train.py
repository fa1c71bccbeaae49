(Precision = 32, Fused = True) == (Precision = 16, Fused = False) == (Precision = 32, Fused = False)
but for (Precision = 16, Fused True) the loss deviates.

pytorch-lightning colab

relevant code:

torch.manual_seed(2809)
#declare fused & precision here
precision = 32
fused = True

target = torch.randn(10, 10, device='cuda')
data = torch.randn(10, 10, device='cuda')

class TestSystem(LightningModule):
  def __init__(self):
    super().__init__()
    self.model = nn.Linear(10, 10)
    self.loss_fn = nn.MSELoss()

  def configure_optimizers(self):
     optimizer = torch.optim.Adam(self.model.parameters(), lr=1., fused=fused)
     return [optimizer], []
