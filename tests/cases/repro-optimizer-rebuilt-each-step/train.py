"""House-price regressor with a learning rate that can be changed from a config between runs."""
import torch
import torch.nn as nn

torch.manual_seed(0)
CONFIG = {"lr": 1e-2, "epochs": 25, "batch_size": 64}
x = torch.randn(3000, 8)
y = x @ torch.randn(8) + 0.5 * torch.tanh(x[:, 0] * x[:, 1]) + 0.1 * torch.randn(3000)
model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))

for epoch in range(CONFIG["epochs"]):
    for i in range(0, len(x), CONFIG["batch_size"]):
        xb, yb = x[i : i + CONFIG["batch_size"]], y[i : i + CONFIG["batch_size"]]
        optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
        loss = nn.functional.mse_loss(model(xb).squeeze(-1), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if epoch % 5 == 4:
        with torch.no_grad():
            full = nn.functional.mse_loss(model(x).squeeze(-1), y).item()
        print(f"epoch {epoch + 1} mse {full:.4f}")
