import torch
import torch.nn as nn

torch.manual_seed(0)

N, DIM = 20000, 16
x = torch.distributions.StudentT(df=2.5).sample((N, DIM))
w_true = torch.randn(DIM, 1)
y = torch.tanh(x @ w_true / 4) * 3 + 0.1 * torch.randn(N, 1)

model = nn.Sequential(nn.Linear(DIM, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
loss_fn = nn.MSELoss()
MAX_GRAD_NORM = 1.0
BATCH = 64

step = 0
for epoch in range(3):
    perm = torch.randperm(N)
    for i in range(0, N, BATCH):
        idx = perm[i:i + BATCH]
        pred = model(x[idx])
        loss = loss_fn(pred, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_GRAD_NORM)
        step += 1
        if step % 25 == 0:
            print(f"epoch {epoch} step {step:4d} loss {loss.item():10.4f} grad_norm {grad_norm.item():10.3f}", flush=True)
