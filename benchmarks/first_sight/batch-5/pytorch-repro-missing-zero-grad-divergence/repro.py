import torch, torch.nn as nn
torch.manual_seed(0)

# synthetic regression data: y = sin(x1) + 0.5*x2 + noise
N = 4096
X = torch.randn(N, 8)
y = (torch.sin(X[:, 0]) + 0.5 * X[:, 1] + 0.1 * torch.randn(N)).unsqueeze(1)
train_X, train_y = X[:3584], y[:3584]
val_X, val_y = X[3584:], y[3584:]

model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.002, momentum=0.9)
loss_fn = nn.MSELoss()
bs = 64

for epoch in range(6):
    model.train()
    perm = torch.randperm(train_X.size(0))
    running = 0.0
    for i in range(0, train_X.size(0), bs):
        idx = perm[i:i + bs]
        xb, yb = train_X[idx], train_y[idx]
        pred = model(xb)
        loss = loss_fn(pred, yb)
        loss.backward()
        opt.step()
        running += loss.item() * xb.size(0)
        step = i // bs
        if step % 14 == 0:
            gn = sum(p.grad.norm() ** 2 for p in model.parameters()) ** 0.5
            print(f"epoch {epoch} step {step:3d} loss {loss.item():.4f} grad_norm {gn.item():.3f}")
    model.eval()
    with torch.no_grad():
        vl = loss_fn(model(val_X), val_y).item()
    print(f"epoch {epoch} train_loss {running / train_X.size(0):.4f} val_loss {vl:.4f}")
