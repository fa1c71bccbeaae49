"""Reproduces NaN weights from Adam's default eps in a model cast to float16.

A small embedding classifier is cast with .half() and trained with torch.optim.Adam
at its default eps=1e-8. In float16, 1e-8 rounds to 0, so for every embedding row
that received no gradient the update is 0 / (sqrt(0) + 0) = NaN. The loss is finite
on the first step and NaN from the next one. Run: python repro.py > train.log
"""

import torch

LR, STEPS, BATCH, VOCAB = 1e-3, 40, 32, 100
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Embedding(VOCAB, 16), torch.nn.Linear(16, 4)).half()
optimizer = torch.optim.Adam(model.parameters(), lr=LR)
eps = optimizer.defaults["eps"]
print(
    f"model dtype={next(model.parameters()).dtype} optimizer=Adam lr={LR} eps={eps} "
    f"max_steps={STEPS} per_device_train_batch_size={BATCH}"
)
for step in range(1, STEPS + 1):
    ids = torch.randint(0, VOCAB // 2, (BATCH,))  # rows 50-99 never see a gradient
    loss = torch.nn.functional.cross_entropy(model(ids).float(), ids % 4)
    optimizer.zero_grad()
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf"))
    optimizer.step()
    if step % 5 == 0 or step <= 2:
        print(
            {
                "loss": round(loss.item(), 4),
                "grad_norm": round(grad_norm.item(), 4),
                "learning_rate": LR,
                "step": step,
            }
        )
