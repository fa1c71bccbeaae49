"""Reproduces loss spikes that derail training when gradient clipping is switched off.

A small MLP regressor is trained with SGD + momentum on data where about 1 batch in
25 contains an outlier target 50x larger than the rest. With max_grad_norm=0 the
clipping step is skipped, so an outlier batch produces a gradient tens of times
the usual size; the update throws the weights far away, the loss on clean data spikes, and the
run settles well above its earlier minimum. Prints HF-Trainer-style dicts every 10
steps. Run: python repro.py > train.log
"""

import torch

MAX_GRAD_NORM, LR, STEPS, BATCH = 0.0, 0.01, 300, 32
torch.manual_seed(0)
features = torch.randn(4096, 16)
targets = features[:, :4].sum(dim=1, keepdim=True)
outliers = torch.randperm(4096)[:40]
targets[outliers] *= 50.0  # rare corrupted labels
model = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.Tanh(), torch.nn.Linear(64, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9)
print(f"learning_rate={LR} max_grad_norm={MAX_GRAD_NORM} optimizer=sgd_momentum_0.9 batch_size={BATCH}")
clean = torch.ones(4096, dtype=torch.bool)
clean[outliers] = False
for step in range(1, STEPS + 1):
    batch = torch.randint(0, 4096, (BATCH,))
    loss = torch.nn.functional.mse_loss(model(features[batch]), targets[batch])
    optimizer.zero_grad()
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(
        model.parameters(), MAX_GRAD_NORM if MAX_GRAD_NORM > 0 else float("inf")
    )
    optimizer.step()
    if step % 10 == 0:
        with torch.no_grad():
            clean_loss = torch.nn.functional.mse_loss(model(features[clean]), targets[clean])
        print({"loss": round(clean_loss.item(), 4), "grad_norm": round(grad_norm.item(), 4),
               "learning_rate": LR, "step": step})
