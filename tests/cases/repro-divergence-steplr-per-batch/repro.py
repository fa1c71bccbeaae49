"""Reproduces a learning rate that collapses to ~0 because an epoch scheduler steps per batch.

StepLR(step_size=3, gamma=0.1) is meant to divide the rate by 10 every 3 epochs, but
scheduler.step() sits inside the batch loop, so it divides by 10 every 3 batches. By the
end of the first epoch the rate is far below anything that changes the weights, and the
loss stops improving at a high level. Prints HF-Trainer-style dicts every 8 batches.
Run: python repro.py > train.log
"""

import torch

LR, EPOCHS, BATCHES_PER_EPOCH, BATCH = 0.05, 3, 32, 32
torch.manual_seed(0)
features = torch.randn(BATCH * BATCHES_PER_EPOCH, 32)
labels = (features[:, :4].sum(dim=1) > 0).long()
model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=3, gamma=0.1)
print(f"lr={LR} scheduler=StepLR(step_size=3, gamma=0.1) epochs={EPOCHS} batches_per_epoch={BATCHES_PER_EPOCH}")
step = 0
for epoch in range(EPOCHS):
    order = torch.randperm(len(features))
    for index in range(BATCHES_PER_EPOCH):
        batch = order[index * BATCH:(index + 1) * BATCH]
        loss = torch.nn.functional.cross_entropy(model(features[batch]), labels[batch])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()  # meant to run once per epoch
        step += 1
        if step % 8 == 0:
            print({"loss": round(loss.item(), 4), "learning_rate": scheduler.get_last_lr()[0],
                   "epoch": round(step / BATCHES_PER_EPOCH, 2), "step": step})
