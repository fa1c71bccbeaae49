class Regression(nn.Module):
  def __init__(self):
    super().__init__()
    self.model = nn.Sequential(
        nn.Conv1d(1, 32, 2).float(),
        nn.ReLU(),
        nn.Conv1d(32, 64, 2).float(),
        nn.ReLU(),
        nn.Conv1d(64, 128, 2).float(),
        nn.ReLU(),
        nn.Flatten(start_dim = 0),
        nn.Linear(128*5, 1)
    )

  def forward(self, x):
    return self.model(x)
