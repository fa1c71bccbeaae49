"""Reproduces a fine-tune in which no parameter is trainable, so the loss never falls.

The script means to freeze a pretrained backbone and train a new classification head,
but the freezing loop runs after the head is attached, so it freezes the head too.
The first backward then raised "element 0 of tensors does not require grad", which the
author silenced with loss.requires_grad_(True): training now runs, every gradient is
None, the optimizer changes nothing and the loss stays at its starting level.
Run: python repro.py > train.log 2>&1
"""

import torch

torch.manual_seed(0)
backbone = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU())
model = torch.nn.Sequential(backbone, torch.nn.Linear(64, 3))  # head attached first ...
for parameter in model.parameters():  # ... then "freeze the backbone" freezes everything
    parameter.requires_grad = False
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
total = sum(p.numel() for p in model.parameters())
print(f"trainable params: {trainable} of {total} ({100 * trainable / total:.2f}%)")
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
features = torch.randn(2048, 32)
labels = (features[:, :3].argmax(dim=1))
for step in range(1, 201):
    batch = torch.randint(0, 2048, (64,))
    loss = torch.nn.functional.cross_entropy(model(features[batch]), labels[batch])
    loss.requires_grad_(True)  # "fix" for: element 0 of tensors does not require grad
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 20 == 0:
        print({"loss": round(loss.item(), 4), "learning_rate": 1e-3, "step": step})
