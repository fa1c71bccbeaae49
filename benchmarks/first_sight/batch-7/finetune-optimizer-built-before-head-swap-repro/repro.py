# Transfer learning: frozen pretrained backbone + new classification head
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)

class Net(nn.Module):
    def __init__(self, n_classes=100):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU())
        self.fc = nn.Linear(256, n_classes)
    def forward(self, x):
        return self.fc(self.backbone(x))

# "pretrained" model
model = Net(n_classes=100)
N, C = 4096, 6
centers = torch.randn(C, 64)
y = torch.randint(0, C, (N,))
X = centers[y] + 0.8 * torch.randn(N, 64)
dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=64, shuffle=True)

for p in model.backbone.parameters():
    p.requires_grad = False
optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=1e-3)

# replace head for our 6-class task
model.fc = nn.Linear(256, C)

for epoch in range(8):
    tot, correct = 0.0, 0
    for xb, yb in dl:
        out = model(xb)
        loss = F.cross_entropy(out, yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        tot += loss.item() * len(xb)
        correct += (out.argmax(1) == yb).sum().item()
    print(f"Epoch {epoch+1}/8 - loss: {tot/N:.4f} - acc: {correct/N:.4f}")
