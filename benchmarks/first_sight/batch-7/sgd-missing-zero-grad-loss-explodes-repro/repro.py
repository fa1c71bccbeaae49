# Fine-tuning a small MLP classifier; eval each epoch
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
N, D, C = 4096, 20, 5
W = torch.randn(D, C)
X = torch.randn(N, D)
y = (X @ W + 0.5 * torch.randn(N, C)).argmax(1)
Xv = torch.randn(1024, D); yv = (Xv @ W).argmax(1)
dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), batch_size=64, shuffle=True)

model = nn.Sequential(nn.Linear(D, 128), nn.ReLU(), nn.Linear(128, C))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

for epoch in range(10):
    model.train()
    tot = 0.0
    for i, (xb, yb) in enumerate(dl):
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        tot += loss.item()
        if i % 16 == 0:
            print(f"epoch {epoch} iter {i:3d} loss {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        acc = (model(Xv).argmax(1) == yv).float().mean().item()
    print(f"== epoch {epoch} mean_train_loss {tot/len(dl):.4f} val_acc {acc:.3f}")
