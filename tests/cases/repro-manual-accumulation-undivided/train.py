"""Text-length regressor trained with gradient accumulation to reach the recipe's batch of 512."""
import torch
import torch.nn as nn

torch.manual_seed(0)
RECIPE = {"lr": 0.05, "batch": 512, "micro_batch": 32}
accum_steps = RECIPE["batch"] // RECIPE["micro_batch"]
x = torch.randn(8192, 16)
y = x @ torch.randn(16) + 0.1 * torch.randn(8192)
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=RECIPE["lr"], momentum=0.9)

for epoch in range(4):
    perm = torch.randperm(len(x))
    for i, start in enumerate(range(0, len(x), RECIPE["micro_batch"])):
        idx = perm[start : start + RECIPE["micro_batch"]]
        loss = nn.functional.mse_loss(model(x[idx]).squeeze(-1), y[idx])
        loss.backward()
        if (i + 1) % accum_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
    with torch.no_grad():
        full = nn.functional.mse_loss(model(x).squeeze(-1), y).item()
    print(f"epoch {epoch + 1} mse {full:.4f}")
