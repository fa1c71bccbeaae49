import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

NUM_CLASSES = 10

# labels from the dataset export
features = torch.randn(2000, 64)
labels = torch.randint(1, NUM_CLASSES + 1, (2000,))

loader = DataLoader(TensorDataset(features, labels), batch_size=32, shuffle=True)

model = nn.Sequential(
    nn.Linear(64, 128),
    nn.ReLU(),
    nn.Linear(128, NUM_CLASSES),
)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

print(f"train samples: {len(features)}  num_classes: {NUM_CLASSES}")
for epoch in range(3):
    model.train()
    for step, (x, y) in enumerate(loader):
        logits = model(x)
        loss = criterion(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 20 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
