"""Small causal transformer LM over tokenised machine event logs (vocab 64).
Schedule: linear warmup, then cosine decay down to a floor (recipe from the 125M run).
"""
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

CFG = dict(vocab=64, d_model=128, n_layers=2, n_heads=4, seq_len=64, batch=32,
           lr=3e-4, weight_decay=0.1, warmup_steps=100, min_lr_ratio=0.1,
           total_steps=1500, log_every=50, eval_every=250)


def make_corpus(n_tokens, seed):
    """Event logs follow a sparse first-order transition structure."""
    g = torch.Generator().manual_seed(seed)
    logits = torch.randn(CFG["vocab"], CFG["vocab"], generator=torch.Generator().manual_seed(1)) * 3.0
    probs = torch.softmax(logits, dim=-1)
    toks = torch.empty(n_tokens, dtype=torch.long)
    toks[0] = 0
    u = torch.multinomial(probs, num_samples=n_tokens // CFG["vocab"] + 2, replacement=True, generator=g)
    pos = torch.zeros(CFG["vocab"], dtype=torch.long)
    for i in range(1, n_tokens):
        prev = toks[i - 1]
        toks[i] = u[prev, pos[prev] % u.shape[1]]
        pos[prev] += 1
    return toks


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        d = CFG["d_model"]
        self.tok = nn.Embedding(CFG["vocab"], d)
        self.pos = nn.Embedding(CFG["seq_len"], d)
        layer = nn.TransformerEncoderLayer(d, CFG["n_heads"], 4 * d, dropout=0.0,
                                           batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, CFG["n_layers"])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, CFG["vocab"], bias=False)

    def forward(self, idx):
        T = idx.shape[1]
        h = self.tok(idx) + self.pos(torch.arange(T))
        mask = nn.Transformer.generate_square_subsequent_mask(T)
        return self.head(self.ln(self.blocks(h, mask=mask, is_causal=True)))


def batches(data, g):
    L, B = CFG["seq_len"], CFG["batch"]
    while True:
        ix = torch.randint(0, len(data) - L - 1, (B,), generator=g)
        yield torch.stack([data[i:i + L] for i in ix]), torch.stack([data[i + 1:i + L + 1] for i in ix])


def main():
    torch.manual_seed(0)
    train, val = make_corpus(300_000, 0), make_corpus(40_000, 1)
    model = TinyLM()
    opt = torch.optim.AdamW(model.parameters(), lr=CFG["lr"], weight_decay=CFG["weight_decay"])
    warm, total = CFG["warmup_steps"], CFG["total_steps"]
    sched = torch.optim.lr_scheduler.SequentialLR(opt, [
        torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.01, total_iters=warm),
        torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=total - warm, eta_min=CFG["min_lr_ratio"]),
    ], milestones=[warm])
    gen, vgen = torch.Generator().manual_seed(0), torch.Generator().manual_seed(1)
    it = batches(train, gen)
    print(f"params={sum(p.numel() for p in model.parameters()) / 1e6:.2f}M steps={total}")
    t0 = time.time()
    for step in range(1, total + 1):
        x, y = next(it)
        loss = F.cross_entropy(model(x).flatten(0, 1), y.flatten())
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        if step % CFG["log_every"] == 0:
            print(f"step {step:5d} train_loss {loss.item():.4f}  ({time.time() - t0:.0f}s)")
        if step % CFG["eval_every"] == 0:
            model.eval()
            with torch.no_grad():
                vl = sum(F.cross_entropy(model(vx).flatten(0, 1), vy.flatten()).item()
                         for vx, vy in (next(batches(val, vgen)) for _ in range(20))) / 20
            model.train()
            print(f"step {step:5d} val_loss {vl:.4f} val_ppl {math.exp(min(vl, 50)):.2f}")
    torch.save(model.state_dict(), "tiny_lm.pt")


if __name__ == "__main__":
    main()
