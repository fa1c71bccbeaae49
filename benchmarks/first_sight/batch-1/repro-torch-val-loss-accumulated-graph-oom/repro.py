import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


model = nn.Sequential(
    nn.Linear(512, 4096), nn.GELU(),
    nn.Linear(4096, 4096), nn.GELU(),
    nn.Linear(4096, 4096), nn.GELU(),
    nn.Linear(4096, 10),
)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)

train_ds = TensorDataset(torch.randn(4096, 512), torch.randint(0, 10, (4096,)))
val_ds = TensorDataset(torch.randn(32768, 512), torch.randint(0, 10, (32768,)))
train_loader = DataLoader(train_ds, batch_size=256, shuffle=True)
val_loader = DataLoader(val_ds, batch_size=256)

for epoch in range(3):
    model.train()
    running_loss = 0.0
    for step, (x, y) in enumerate(train_loader):
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    print(f"epoch {epoch} train_loss {running_loss / len(train_loader):.4f} rss {rss_mb():.0f} MB")

    model.eval()
    val_loss = 0
    correct = 0
    for step, (x, y) in enumerate(val_loader):
        out = model(x)
        val_loss += criterion(out, y)
        correct += (out.argmax(1) == y).sum()
        if step % 16 == 0:
            print(f"  val step {step}/{len(val_loader)} rss {rss_mb():.0f} MB")
    print(f"epoch {epoch} val_loss {val_loss.item() / len(val_loader):.4f} "
          f"val_acc {correct.item() / len(val_ds):.3f}")
