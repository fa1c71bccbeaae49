import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from model import ShapeNet, make_shapes


def accuracy(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            total += len(y)
    model.train()
    return correct / total


def main():
    torch.manual_seed(0)
    train_loader = DataLoader(make_shapes(6000, seed=1), batch_size=64, shuffle=True)
    val_loader = DataLoader(make_shapes(1000, seed=2), batch_size=256)

    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = nn.DataParallel(ShapeNet()).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)

    for epoch in range(4):
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {accuracy(model, val_loader):.4f}",
              flush=True)

    torch.save(model.state_dict(), "shapenet.pt")
    print("saved shapenet.pt")


if __name__ == "__main__":
    main()
