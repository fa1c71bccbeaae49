"""Reproduces an infinite CTC loss: an utterance with fewer frames than target labels.

A small acoustic model downsamples 4x in time before torch.nn.CTCLoss (zero_infinity
left at False). Most utterances have enough frames; at step 30 one batch holds a short
clip whose frame count after downsampling is below its transcript length, so no
alignment exists: the loss is inf, its gradients are NaN, the update writes NaN into
the weights and every later loss is NaN. Run: python repro.py > train.log
"""

import torch

CLASSES, BATCH, STEPS, LR = 12, 4, 40, 1e-3
torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Conv1d(8, 32, kernel_size=4, stride=4), torch.nn.ReLU(), torch.nn.Conv1d(32, CLASSES, 1)
)
ctc = torch.nn.CTCLoss(blank=0, zero_infinity=False)
optimizer = torch.optim.Adam(model.parameters(), lr=LR)
print(f"subsampling=4 blank=0 zero_infinity={ctc.zero_infinity} lr={LR} batch_size={BATCH}")
for step in range(1, STEPS + 1):
    samples = 40 if step == 30 else 160  # one short clip: 40 samples -> 10 frames
    audio = torch.randn(BATCH, 8, samples)
    targets = torch.randint(1, CLASSES, (BATCH, 16))
    log_probs = model(audio).permute(2, 0, 1).log_softmax(-1)  # (frames, batch, classes)
    frames = torch.full((BATCH,), log_probs.shape[0], dtype=torch.long)
    loss = ctc(log_probs, targets, frames, torch.full((BATCH,), 16, dtype=torch.long))
    optimizer.zero_grad()
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf"))
    optimizer.step()
    if step % 5 == 0 or step >= 29:
        print(f"step {step} frames {log_probs.shape[0]} target_len 16 ctc_loss {loss.item():.4f} "
              f"grad_norm {grad_norm.item():.4f}")
