# Train with nn.DataParallel (as on the multi-GPU box), save the checkpoint, then
# reload it into a plain model for a CPU inference service.
import os
import tempfile
import torch
import torch.nn as nn

torch.manual_seed(0)

def make_model():
    return nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))

X = torch.randn(3000, 10)
W = torch.randn(10, 3)
y = (X @ W).argmax(1)

# ---------------- training script ----------------
model = nn.DataParallel(make_model())
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(30):
    logits = model(X)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad(); loss.backward(); opt.step()
acc = (model(X).argmax(1) == y).float().mean().item()
print(f"[train] final loss {loss.item():.4f} accuracy {acc:.4f}")
ckpt = os.path.join(tempfile.mkdtemp(), "model.pt")
torch.save(model.state_dict(), ckpt)
print(f"[train] saved {ckpt}")

# ---------------- inference script ----------------
torch.manual_seed(123)
serving_model = make_model()
state = torch.load(ckpt, map_location="cpu")
serving_model.load_state_dict(state, strict=False)
serving_model.eval()
with torch.no_grad():
    acc = (serving_model(X).argmax(1) == y).float().mean().item()
print(f"[serve] accuracy on the same data {acc:.4f}")
