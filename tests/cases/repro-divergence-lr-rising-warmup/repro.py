"""Reproduces a divergence: Adam whose warmup never ends, so the LR climbs to 0.4.

A small MLP on synthetic 4-class data; the linear warmup is set to 400 steps for
a 400-step run, so the learning rate keeps rising. Prints HF-Trainer-style log
dicts every 10 steps: the loss falls while the rate is small, then climbs and
stays high. Run: python repro.py > train.log
"""

import torch

PEAK_LR, WARMUP_STEPS, STEPS, BATCH = 0.4, 400, 400, 32
torch.manual_seed(0)
features = torch.randn(2048, 32)
labels = (features[:, :4].sum(dim=1) > 0).long() + 2 * (features[:, 4] > 0).long()
model = torch.nn.Sequential(torch.nn.Linear(32, 256), torch.nn.ReLU(), torch.nn.Linear(256, 4))
optimizer = torch.optim.Adam(model.parameters(), lr=PEAK_LR)
schedule = torch.optim.lr_scheduler.LambdaLR(
    optimizer, lambda step: min(1.0, (step + 1) / WARMUP_STEPS)
)
print(
    f"learning_rate={PEAK_LR} warmup_steps={WARMUP_STEPS} max_steps={STEPS} "
    f"per_device_train_batch_size={BATCH}"
)
for step in range(1, STEPS + 1):
    batch = torch.randint(0, 2048, (BATCH,))
    loss = torch.nn.functional.cross_entropy(model(features[batch]), labels[batch])
    optimizer.zero_grad()
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf"))
    optimizer.step()
    schedule.step()
    if step % 10 == 0:
        print(
            {
                "loss": round(loss.item(), 4),
                "grad_norm": round(grad_norm.item(), 4),
                "learning_rate": round(schedule.get_last_lr()[0], 6),
                "epoch": round(step * BATCH / 2048, 2),
                "step": step,
            }
        )
