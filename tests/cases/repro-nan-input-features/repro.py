"""Reproduces a NaN loss caused by missing values in the input features.

A regression table is built in memory the way a CSV with empty cells loads: a few
cells of one column are NaN. An MLP trains on it with Adam; the first batch that
holds such a row gives a NaN loss, the backward pass writes NaN into the first
layer, and every later loss is NaN. At the first non-finite loss the script checks
that batch with torch.isfinite and stops. Run: python repro.py > train.log
"""

import torch

LR, STEPS, BATCH, ROWS = 1e-3, 200, 32, 4096
torch.manual_seed(0)
features = torch.randn(ROWS, 8)
targets = features @ torch.linspace(-1.0, 1.0, 8) + 0.1 * torch.randn(ROWS)
features[torch.randperm(ROWS)[:6], 5] = float("nan")  # empty cells in column 5
model = torch.nn.Sequential(torch.nn.Linear(8, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=LR)
print(f"loaded {ROWS} rows x {features.shape[1]} feature columns; lr={LR} batch_size={BATCH}")
for step in range(1, STEPS + 1):
    batch = torch.randint(0, ROWS, (BATCH,))
    inputs, target = features[batch], targets[batch]
    loss = torch.nn.functional.mse_loss(model(inputs).squeeze(1), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 10 == 0 or not torch.isfinite(loss):
        print({"loss": round(loss.item(), 4), "learning_rate": LR, "step": step})
    if not torch.isfinite(loss):
        bad_rows = (~torch.isfinite(inputs)).any(dim=1).sum().item()
        if bad_rows:
            raise ValueError(f"NaN found in input batch at step {step}: {bad_rows} of {BATCH} rows")
        raise ValueError(f"loss is not finite at step {step} but the input batch is finite")
