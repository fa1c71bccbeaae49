"""Reproduces a NaN loss from a hand-written log-likelihood taking log(0).

A binary classifier's loss is written as -(y*log(p) + (1-y)*log(1-p)) with
p = sigmoid(logits) instead of binary_cross_entropy_with_logits. As the logits of some
samples grow past about +-17, p rounds to exactly 1.0 (or 0.0) in float32, a log term
is log(0) = -inf and 0 * -inf makes the loss NaN. The user has switched on anomaly
detection to find the op: backward stops at LogBackward0 and names the forward line.
Run: python repro.py > train.log 2>&1
"""

import torch

STEPS, BATCH, LR = 60, 64, 0.5
torch.manual_seed(0)
torch.autograd.set_detect_anomaly(True)
features = torch.randn(4096, 20)
labels = (features[:, 0] > 0).float()
model = torch.nn.Linear(20, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=LR)
print(f"loss=custom_bce(sigmoid) lr={LR} batch_size={BATCH} optimizer=SGD")
for step in range(1, STEPS + 1):
    batch = torch.randint(0, 4096, (BATCH,))
    probs = torch.sigmoid(model(features[batch] * step)).squeeze(1)  # input scale grows
    target = labels[batch]
    loss = -(target * torch.log(probs) + (1 - target) * torch.log(1 - probs)).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 5 == 0 or not torch.isfinite(loss):
        print(f"step {step}/{STEPS} | loss: {loss.item():.4f} | lr: {LR}")
        if torch.isnan(loss):
            break
