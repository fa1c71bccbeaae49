"""LoRA fine-tune of our small char-level GPT on the support-ticket corpus.

Base model weights are frozen, only the LoRA adapters on q/v are trained.
Activation checkpointing per block so we can use long context on the laptop.
"""
import argparse
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

p = argparse.ArgumentParser()
p.add_argument("--ctx", type=int, default=256)
p.add_argument("--d-model", type=int, default=128)
p.add_argument("--n-layer", type=int, default=4)
p.add_argument("--n-head", type=int, default=4)
p.add_argument("--lora-r", type=int, default=8)
p.add_argument("--lora-alpha", type=float, default=16.0)
p.add_argument("--lr", type=float, default=2e-4)
p.add_argument("--batch-size", type=int, default=8)
p.add_argument("--steps", type=int, default=200)
p.add_argument("--grad-ckpt", action="store_true", default=True)
args = p.parse_args()

torch.manual_seed(0)

# ----------------------------------------------------------------- data
TEXT = (
    "Customer reports the export button does nothing on Safari. Agent: cleared cache, issue persists. "
    "Escalated to web team. Resolution: fixed in release 4.2.1.\n"
    "Customer cannot log in after password reset. Agent: reset link expired, sent a new one. Resolved.\n"
    "Invoice PDF shows the wrong VAT number. Agent: updated billing profile, regenerated invoice.\n"
) * 200
chars = sorted(set(TEXT))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in TEXT], dtype=torch.long)
VOCAB = len(chars)


def get_batch():
    ix = torch.randint(len(data) - args.ctx - 1, (args.batch_size,))
    x = torch.stack([data[i:i + args.ctx] for i in ix])
    y = torch.stack([data[i + 1:i + args.ctx + 1] for i in ix])
    return x, y


# ----------------------------------------------------------------- model
class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r: int, alpha: float):
        super().__init__()
        self.base = base
        self.A = nn.Parameter(torch.randn(r, base.in_features) / math.sqrt(base.in_features))
        self.B = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.A.t() @ self.B.t()) * self.scale


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.ln1 = nn.LayerNorm(d)
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.o = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def attn(self, x):
        B, T, C = x.shape
        q = self.q(x).view(B, T, self.h, C // self.h).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, C // self.h).transpose(1, 2)
        v = self.v(x).view(B, T, self.h, C // self.h).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o(y.transpose(1, 2).reshape(B, T, C))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, vocab, d, n_layer, n_head, ctx, grad_ckpt=False):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(ctx, d)
        self.blocks = nn.ModuleList([Block(d, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.tok.weight  # tied
        self.grad_ckpt = grad_ckpt
        nn.init.normal_(self.tok.weight, std=0.02)
        nn.init.normal_(self.pos.weight, std=0.02)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        x = self.tok(idx) + self.pos(torch.arange(T))
        for blk in self.blocks:
            if self.grad_ckpt and self.training:
                x = checkpoint(blk, x, use_reentrant=True)
            else:
                x = blk(x)
        logits = self.head(self.ln_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss


model = TinyGPT(VOCAB, args.d_model, args.n_layer, args.n_head, args.ctx, grad_ckpt=args.grad_ckpt)
print("loading base weights (random init for this run)")

# freeze base, inject LoRA into q and v
for prm in model.parameters():
    prm.requires_grad_(False)
for blk in model.blocks:
    blk.q = LoRALinear(blk.q, args.lora_r, args.lora_alpha)
    blk.v = LoRALinear(blk.v, args.lora_r, args.lora_alpha)

trainable = [p_ for p_ in model.parameters() if p_.requires_grad]
n_train = sum(p_.numel() for p_ in trainable)
n_total = sum(p_.numel() for p_ in model.parameters())
print(f"trainable params: {n_train:,} || all params: {n_total:,} || trainable%: {100 * n_train / n_total:.2f}")
print(f"gradient checkpointing: {args.grad_ckpt}")

opt = torch.optim.AdamW(trainable, lr=args.lr, weight_decay=0.0)

model.train()
t0 = time.time()
for step in range(1, args.steps + 1):
    x, y = get_batch()
    _, loss = model(x, y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(trainable, 1.0)
    opt.step()
    opt.zero_grad(set_to_none=True)
    if step % 20 == 0 or step == 1:
        print(f"step {step:4d} | loss {loss.item():.4f} | {time.time() - t0:.1f}s")
