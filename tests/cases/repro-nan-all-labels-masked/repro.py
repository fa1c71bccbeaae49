"""Reproduces NaN losses from batches whose labels are all -100 (prompt-only SFT samples).

A tiny causal LM is trained on prompt+response sequences where prompt tokens are
masked with -100 and sequences are cut at MAX_LEN. Samples whose prompt is longer
than MAX_LEN lose every response token, so their labels are all -100. Batches made
only of such samples give cross_entropy a mean over zero tokens: the loss is NaN
while the gradient is exactly zero. Evaluation runs on long-prompt samples only.
Prints HF-Trainer-style log dicts every step. Run: python repro.py > train.log
"""

import torch
import torch.nn.functional as F

VOCAB, MAX_LEN, BATCH, STEPS, LR = 64, 24, 4, 24, 3e-3
torch.manual_seed(0)


def sample(prompt_len: int, response_len: int) -> tuple[torch.Tensor, torch.Tensor]:
    tokens = torch.randint(1, VOCAB, (prompt_len + response_len,))
    labels = tokens.clone()
    labels[:prompt_len] = -100
    return tokens[:MAX_LEN], labels[:MAX_LEN]


def batch(long_prompts: bool) -> tuple[torch.Tensor, torch.Tensor]:
    lengths = [(30, 8)] * BATCH if long_prompts else [(8, 10)] * BATCH
    pairs = [sample(p, r) for p, r in lengths]
    ids = torch.stack([F.pad(t, (0, MAX_LEN - len(t))) for t, _ in pairs])
    labels = torch.stack([F.pad(lab, (0, MAX_LEN - len(lab)), value=-100) for _, lab in pairs])
    return ids, labels


model = torch.nn.Sequential(torch.nn.Embedding(VOCAB, 32), torch.nn.Linear(32, VOCAB))
optimizer = torch.optim.AdamW(model.parameters(), lr=LR)
print(f"max_seq_length={MAX_LEN} per_device_train_batch_size={BATCH} learning_rate={LR} logging_steps=1")
for step in range(1, STEPS + 1):
    ids, labels = batch(long_prompts=step % 6 == 0)
    logits = model(ids)[:, :-1]
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), labels[:, 1:].reshape(-1), ignore_index=-100)
    optimizer.zero_grad()
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    print({"loss": round(loss.item(), 4), "grad_norm": round(grad_norm.item(), 4),
           "learning_rate": LR, "epoch": round(step / STEPS, 2)})
with torch.no_grad():
    ids, labels = batch(long_prompts=True)
    eval_loss = F.cross_entropy(model(ids)[:, :-1].reshape(-1, VOCAB), labels[:, 1:].reshape(-1))
print({"eval_loss": round(eval_loss.item(), 4), "epoch": 1.0})
