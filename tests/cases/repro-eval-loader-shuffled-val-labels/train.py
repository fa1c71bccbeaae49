# Three-class classifier on synthetic clusters; validation accuracy is computed
# from predictions gathered over a shuffled validation loader against the
# dataset's stored labels.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(1)
CENTRES = torch.tensor([[2.0, 0.0], [-2.0, 2.0], [0.0, -2.0]])


class Clusters(Dataset):
    def __init__(self, n):
        self.labels = torch.randint(0, 3, (n,))
        self.points = CENTRES[self.labels] + 0.6 * torch.randn(n, 2)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.points[i], self.labels[i]


train_set, val_set = Clusters(3000), Clusters(900)
train_loader = DataLoader(train_set, batch_size=32, shuffle=True)
val_loader = DataLoader(val_set, batch_size=128, shuffle=True)

model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.CrossEntropyLoss()

for epoch in range(3):
    model.train()
    for x, y in train_loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    outputs = []
    with torch.no_grad():
        for x, _ in val_loader:
            outputs.append(model(x).argmax(dim=1))
    val_acc = (torch.cat(outputs) == val_set.labels).float().mean().item()
    print(f"epoch {epoch} loss {loss.item():.4f} val_acc {val_acc:.4f}")
