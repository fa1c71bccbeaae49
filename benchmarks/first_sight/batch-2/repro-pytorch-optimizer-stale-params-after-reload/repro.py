# Regression training script with optional warm start from a checkpoint.
import torch
import torch.nn as nn

torch.manual_seed(0)

def build_model():
    return nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1))

X = torch.randn(1024, 8)
y = (X[:, :1] * 2.0 - X[:, 1:2] + 0.5 * X[:, 2:3] ** 2)

model = build_model()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.MSELoss()

# warm start: initialise from the "pretrained" weights saved earlier
ckpt = {k: v.clone() for k, v in build_model().state_dict().items()}
model = build_model()
model.load_state_dict(ckpt)

for step in range(1, 201):
    idx = torch.randint(0, X.shape[0], (64,))
    pred = model(X[idx])
    loss = loss_fn(pred, y[idx])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 10 == 0:
        print(f"step {step:4d} loss {loss.item():.4f} lr {optimizer.param_groups[0]['lr']}")
