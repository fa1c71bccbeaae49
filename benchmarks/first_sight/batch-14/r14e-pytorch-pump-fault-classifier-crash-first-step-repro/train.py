"""Train a fault-type classifier on pump vibration summary features."""
import time
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

FAULT_TYPES = [
    "normal", "imbalance", "misalignment", "bearing_outer", "bearing_inner",
    "cavitation", "looseness", "impeller_wear", "belt_slip", "seal_leak",
]
N_FEATURES = 24
BATCH_SIZE = 128
EPOCHS = 6
LR = 1e-3


def load_inspection_export(seed=0):
    """Synthetic stand-in for the maintenance export: features, fault id, inspection day."""
    rng = np.random.default_rng(seed)
    n = 12000
    probs = np.array([0.40, 0.12, 0.10, 0.09, 0.08, 0.07, 0.06, 0.05, 0.03, 0.0])
    probs = probs / probs.sum()
    y = rng.choice(len(FAULT_TYPES) - 1, size=n, p=probs[:-1])
    day = np.sort(rng.integers(0, 365, size=n))
    late = np.where(day > 340)[0]
    leak_rows = rng.choice(late, size=40, replace=False)
    y[leak_rows] = FAULT_TYPES.index("seal_leak")
    centers = rng.normal(0, 1.5, size=(len(FAULT_TYPES), N_FEATURES))
    X = centers[y] + rng.normal(0, 1.0, size=(n, N_FEATURES))
    return X.astype(np.float32), y.astype(np.int64), day


def main():
    torch.manual_seed(0)
    X, y, day = load_inspection_export()
    # time-based split: train on the first 11 months, validate on the last month
    train_mask = day <= 334
    X_tr, y_tr = X[train_mask], y[train_mask]
    X_va, y_va = X[~train_mask], y[~train_mask]
    print(f"train rows {len(y_tr)}  val rows {len(y_va)}  classes {len(FAULT_TYPES)}")

    mu, sd = X_tr.mean(0), X_tr.std(0)
    X_tr = (X_tr - mu) / sd
    X_va = (X_va - mu) / sd

    # inverse-frequency class weights to counter the 'normal' majority
    counts = np.bincount(y_tr)
    class_weights = counts.sum() / (len(counts) * counts)
    print("class weights:", np.round(class_weights, 3).tolist())

    train_dl = DataLoader(TensorDataset(torch.from_numpy(X_tr), torch.from_numpy(y_tr)),
                          batch_size=BATCH_SIZE, shuffle=True)
    val_dl = DataLoader(TensorDataset(torch.from_numpy(X_va), torch.from_numpy(y_va)),
                        batch_size=512)

    model = nn.Sequential(
        nn.Linear(N_FEATURES, 128), nn.ReLU(), nn.Dropout(0.1),
        nn.Linear(128, 128), nn.ReLU(), nn.Dropout(0.1),
        nn.Linear(128, len(FAULT_TYPES)),
    )
    criterion = nn.CrossEntropyLoss(weight=torch.tensor(class_weights, dtype=torch.float32))
    optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=1e-4)

    for epoch in range(EPOCHS):
        model.train()
        t0, total, seen = time.time(), 0.0, 0
        for xb, yb in train_dl:
            logits = model(xb)
            loss = criterion(logits, yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(yb)
            seen += len(yb)
        model.eval()
        correct = 0
        with torch.no_grad():
            for xb, yb in val_dl:
                correct += (model(xb).argmax(1) == yb).sum().item()
        print(f"epoch {epoch} train_loss {total / seen:.4f} val_acc {correct / len(y_va):.3f} "
              f"({time.time() - t0:.1f}s)")

    torch.save(model.state_dict(), "fault_classifier.pt")


if __name__ == "__main__":
    main()
