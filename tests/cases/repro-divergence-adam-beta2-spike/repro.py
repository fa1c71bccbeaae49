"""Reproduces a loss blow-up from AdamW's beta2=0.999 when long-idle parameters start to learn.

A small MLP regressor is trained with AdamW (lr 3e-2, 100 warmup steps, clipping at 1.0). For
the first 1200 steps 1024 of its input features are always zero, as rare tokens or a data
source that has not been mixed in yet would be, so the weights reading them get no gradient and
their second-moment estimates stay near zero. From step 1200 those features appear. With
beta2=0.999 the second moment needs ~1000 steps to catch up while the first moment needs ~10,
so for dozens of steps those weights move several times the learning rate per step in the same
direction: the loss climbs to ~6x the jump the new data itself caused (4.2 vs 0.65) and is still
~3.5x higher than the same script with betas=(0.9, 0.95) when the run ends (0.27 vs 0.076);
with 0.95 the loss never rises above the step-1200 value and keeps falling. Prints
HF-Trainer-style dicts every 25 steps. Run: python repro.py > train.log
"""

import torch

LR, BETAS, WARMUP, STEPS, SHIFT, BATCH = 3e-2, (0.9, 0.999), 100, 1500, 1200, 64
N_COMMON, N_LATE = 32, 1024
torch.manual_seed(0)
true_weights = torch.randn(N_COMMON + N_LATE, 1) * 0.1
model = torch.nn.Sequential(
    torch.nn.Linear(N_COMMON + N_LATE, 64), torch.nn.GELU(), torch.nn.Linear(64, 1)
)
optimizer = torch.optim.AdamW(model.parameters(), lr=LR, betas=BETAS, eps=1e-8, weight_decay=0.1)
print(
    f"optimizer=AdamW lr={LR} betas={BETAS} eps=1e-08 weight_decay=0.1 "
    f"warmup_steps={WARMUP} max_grad_norm=1.0 batch_size={BATCH} max_steps={STEPS}"
)
for step in range(1, STEPS + 1):
    for group in optimizer.param_groups:
        group["lr"] = LR * min(1.0, step / WARMUP)
    inputs = torch.randn(BATCH, N_COMMON + N_LATE)
    if step < SHIFT:
        inputs[:, N_COMMON:] = 0.0  # these features have not appeared yet
    else:
        inputs[:, N_COMMON:] *= (torch.rand(BATCH, N_LATE) < 0.05).float()
    loss = torch.nn.functional.mse_loss(model(inputs), inputs @ true_weights)
    optimizer.zero_grad()
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    if step % 25 == 0:
        print(
            {
                "loss": round(loss.item(), 6),
                "grad_norm": round(grad_norm.item(), 4),
                "learning_rate": optimizer.param_groups[0]["lr"],
                "step": step,
            }
        )
