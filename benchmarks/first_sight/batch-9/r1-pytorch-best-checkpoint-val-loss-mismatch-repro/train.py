"""Churn model with early stopping on validation loss; saves the best weights for serving."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)

N_FEAT = 40
PATIENCE = 10
MAX_EPOCHS = 60


def make_split(n, w):
    X = torch.randn(n, N_FEAT)
    logits = X @ w + 0.5 * torch.sin(3 * X[:, 0]) * X[:, 1]
    y = (logits + 1.0 * torch.randn(n) > 0).long()  # noisy labels
    return X, y


def evaluate(model, X, y):
    model.eval()
    with torch.no_grad():
        logits = model(X)
        return F.cross_entropy(logits, y).item(), (logits.argmax(1) == y).float().mean().item()


def main():
    w = torch.zeros(N_FEAT)
    w[:8] = torch.randn(8)
    Xtr, ytr = make_split(600, w)
    Xva, yva = make_split(1000, w)
    Xte, yte = make_split(4000, w)

    model = nn.Sequential(nn.Linear(N_FEAT, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    best_loss, best_epoch, best_state = float("inf"), -1, None
    bad_epochs = 0
    for epoch in range(MAX_EPOCHS):
        model.train()
        perm = torch.randperm(len(Xtr))
        tot = 0.0
        for i in range(0, len(Xtr), 32):
            idx = perm[i:i + 32]
            loss = F.cross_entropy(model(Xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        val_loss, val_acc = evaluate(model, Xva, yva)
        flag = ""
        if val_loss < best_loss:
            best_loss, best_epoch = val_loss, epoch
            best_state = model.state_dict()
            bad_epochs = 0
            flag = "  *best*"
        else:
            bad_epochs += 1
        print(f"epoch {epoch:2d}  train_loss {tot / len(Xtr):.4f}  val_loss {val_loss:.4f}  val_acc {val_acc:.4f}{flag}")
        if bad_epochs >= PATIENCE:
            print(f"early stopping: no improvement for {PATIENCE} epochs")
            break

    print(f"restoring best checkpoint from epoch {best_epoch} (val_loss {best_loss:.4f})")
    model.load_state_dict(best_state)
    torch.save(best_state, "churn_best.pt")

    vl, va = evaluate(model, Xva, yva)
    tl, ta = evaluate(model, Xte, yte)
    print(f"after restore: val_loss {vl:.4f} val_acc {va:.4f} | test_loss {tl:.4f} test_acc {ta:.4f}")

    served = nn.Sequential(nn.Linear(N_FEAT, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 2))
    served.load_state_dict(torch.load("churn_best.pt"))
    vl, va = evaluate(served, Xva, yva)
    print(f"churn_best.pt reloaded in serving model: val_loss {vl:.4f} val_acc {va:.4f}")


if __name__ == "__main__":
    main()
