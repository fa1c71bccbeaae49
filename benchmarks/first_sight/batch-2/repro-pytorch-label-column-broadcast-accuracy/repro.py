# Classifier training on tabular data; labels come from a (N, 1) label column.
import torch
import torch.nn as nn

torch.manual_seed(0)
N, D, C = 2000, 20, 4
X = torch.randn(N, D)
W_true = torch.randn(D, C)
labels = (X @ W_true).argmax(dim=1, keepdim=True)   # label column, as read from the dataframe
X_train, y_train = X[:1600], labels[:1600]
X_val, y_val = X[1600:], labels[1600:]

model = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, C))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.CrossEntropyLoss()
batch = 100

step = 0
for epoch in range(5):
    model.train()
    perm = torch.randperm(X_train.shape[0])
    for i in range(0, X_train.shape[0], batch):
        idx = perm[i:i + batch]
        logits = model(X_train[idx])
        loss = loss_fn(logits, y_train[idx].squeeze(1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 4 == 0:
            print(f"epoch {epoch} step {step:3d} train_loss {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        val_logits = model(X_val)
        val_loss = loss_fn(val_logits, y_val.squeeze(1)).item()
        preds = val_logits.argmax(dim=1)
        val_acc = (preds == y_val).float().mean().item()
    print(f"epoch {epoch} val_loss {val_loss:.4f} val_acc {val_acc:.4f}")
