# kNN evaluation of a small embedding model: embed the whole train and test set,
# then label each test point by its nearest train neighbour.
import time
import torch
import torch.nn as nn

torch.manual_seed(0)
N_TRAIN, N_TEST, D_IN, D_EMB, N_CLS = 400_000, 100_000, 32, 64, 10

print(f"torch {torch.__version__}")
X_train = torch.randn(N_TRAIN, D_IN)
y_train = torch.randint(0, N_CLS, (N_TRAIN,))
X_test = torch.randn(N_TEST, D_IN)
y_test = torch.randint(0, N_CLS, (N_TEST,))

encoder = nn.Sequential(nn.Linear(D_IN, 128), nn.ReLU(), nn.Linear(128, D_EMB))
head = nn.Linear(D_EMB, N_CLS)
opt = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=1e-3)

t0 = time.time()
for epoch in range(2):
    perm = torch.randperm(N_TRAIN)
    tot = 0.0
    for i in range(0, N_TRAIN, 4096):
        idx = perm[i:i + 4096]
        loss = nn.functional.cross_entropy(head(encoder(X_train[idx])), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item() * len(idx)
    print(f"epoch {epoch} train_loss {tot / N_TRAIN:.4f} ({time.time() - t0:.1f}s)")

print("computing embeddings for kNN eval ...")
with torch.no_grad():
    emb_train = encoder(X_train)
    emb_test = encoder(X_test)
    print(f"emb_train {tuple(emb_train.shape)} emb_test {tuple(emb_test.shape)}")
    dists = torch.cdist(emb_test, emb_train)
    nn_idx = dists.argmin(dim=1)
    acc = (y_train[nn_idx] == y_test).float().mean().item()
print(f"kNN accuracy: {acc:.4f}")
