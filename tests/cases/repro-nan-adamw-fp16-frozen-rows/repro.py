"""Reproduces NaN from AdamW on float16 weights where some inputs are always zero.

A linear probe on 24 features is loaded with torch_dtype float16 (weights cast
with .to(torch.float16)); the last 8 features are padding columns that are always
0, so their weight gradients are exactly 0. AdamW's eps=1e-8 is 0 in float16 and
those weights become 0/0 = NaN on the first step. Logs in a Lightning-like format.
Run: python repro.py > train.log
"""

import torch

LR, EPOCHS, BATCHES, BATCH = 5e-4, 3, 8, 64
torch.manual_seed(1)
features = torch.randn(BATCHES * BATCH, 24)
features[:, 16:] = 0.0  # padding columns
target = (features[:, :16].sum(dim=1) > 0).long()
model = torch.nn.Linear(24, 2).to(torch.float16)
optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
print(f"torch_dtype=torch.float16 optimizer=AdamW lr={LR} betas=(0.9, 0.999) "
      f"eps={optimizer.defaults['eps']} weight_decay=0.01")
for epoch in range(EPOCHS):
    for index in range(BATCHES):
        rows = slice(index * BATCH, (index + 1) * BATCH)
        logits = model(features[rows].to(torch.float16)).float()
        loss = torch.nn.functional.cross_entropy(logits, target[rows])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"Epoch {epoch}: {index + 1}/{BATCHES} train_loss={loss.item():.4f}")
