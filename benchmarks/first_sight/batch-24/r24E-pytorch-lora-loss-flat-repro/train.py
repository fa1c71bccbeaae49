"""LoRA fine-tuning (hand-rolled adapters) of a small GPT-2 on a synthetic modular-counting language."""
import math
import time

import torch
import torch.nn as nn
from transformers import GPT2Config, GPT2LMHeadModel
from transformers.pytorch_utils import Conv1D

torch.manual_seed(0)
VOCAB, SEQ, BATCH, STEPS, LR = 64, 32, 32, 200, 2e-3


def batch_gen(n):
    # each sequence counts upward with a random stride: x_{t+1} = (x_t + k) mod VOCAB
    start = torch.randint(0, VOCAB, (n, 1))
    stride = torch.randint(1, 4, (n, 1))
    return (start + stride * torch.arange(SEQ)) % VOCAB


class LoRAConv1D(nn.Module):
    """Wraps GPT-2's Conv1D (weight stored as [in, out]) with a low-rank update."""

    def __init__(self, base: Conv1D, r=8, alpha=16, dropout=0.05):
        super().__init__()
        self.base = base
        d_in, d_out = base.weight.shape
        self.lora_A = nn.Parameter(torch.empty(d_in, r))
        self.lora_B = nn.Parameter(torch.zeros(r, d_out))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.scaling = alpha / r
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        return self.base(x) + (self.drop(x) @ self.lora_A @ self.lora_B) * self.scaling


def add_lora(model, targets=("c_attn", "c_proj", "c_fc"), **kw):
    for p in model.parameters():
        p.requires_grad_(False)
    for name, module in list(model.named_modules()):
        for child_name, child in list(module.named_children()):
            if child_name in targets and isinstance(child, Conv1D):
                setattr(module, child_name, LoRAConv1D(child, **kw))
    return model


cfg = GPT2Config(vocab_size=VOCAB, n_positions=SEQ, n_embd=128, n_layer=2, n_head=4, bos_token_id=0, eos_token_id=0)
model = GPT2LMHeadModel(cfg)  # stands in for the pretrained checkpoint in this smoke test

optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.0)
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / 30))

model = add_lora(model, r=8, alpha=16)
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
total = sum(p.numel() for p in model.parameters())
print(f"trainable params: {trainable:,} / {total:,} ({100 * trainable / total:.2f}%)")

val = batch_gen(256)
model.train()
t0 = time.time()
for step in range(1, STEPS + 1):
    x = batch_gen(BATCH)
    loss = model(input_ids=x, labels=x).loss
    loss.backward()
    torch.nn.utils.clip_grad_norm_([p for p in model.parameters() if p.requires_grad], 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad()
    if step % 25 == 0:
        model.eval()
        with torch.no_grad():
            vl = model(input_ids=val, labels=val).loss.item()
        model.train()
        print(f"step {step:3d} train_loss {loss.item():.4f} val_loss {vl:.4f} "
              f"lr {scheduler.get_last_lr()[0]:.2e} ({time.time() - t0:.0f}s)")

lora_norm = sum(m.lora_B.norm().item() for m in model.modules() if isinstance(m, LoRAConv1D))
print(f"sum of |lora_B|: {lora_norm:.4f}")
