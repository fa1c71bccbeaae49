"""Train a small GPT-2 (from config) on synthetic 'product code' strings, report validation perplexity.

Training is batched; perplexity is computed on the held-out split at the end of every epoch.
"""
import math
import time

import torch
from torch.utils.data import DataLoader, TensorDataset
from transformers import GPT2Config, GPT2LMHeadModel, get_linear_schedule_with_warmup

torch.manual_seed(0)

VOCAB = 32000          # matches the production sentencepiece vocab
SEQ = 64
N_TRAIN, N_VAL = 3000, 4000


def synth(n, g):
    # simple Markov-ish sequences: next token = (prev * a + b) mod VOCAB with noise
    start = torch.randint(0, VOCAB, (n, 1), generator=g)
    steps = torch.randint(1, 8, (n, SEQ - 1), generator=g)
    x = torch.cumsum(torch.cat([start, steps], 1), 1) % VOCAB
    return x


g = torch.Generator().manual_seed(0)
train_ids = synth(N_TRAIN, g)
val_ids = synth(N_VAL, g)
print(f"train {tuple(train_ids.shape)}, val {tuple(val_ids.shape)}")

cfg = GPT2Config(vocab_size=VOCAB, n_positions=SEQ, n_embd=64, n_layer=2, n_head=4, bos_token_id=0, eos_token_id=0)
model = GPT2LMHeadModel(cfg)
print(f"params: {model.num_parameters() / 1e6:.1f}M")

train_dl = DataLoader(TensorDataset(train_ids), batch_size=32, shuffle=True)
opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
EPOCHS = 2
sched = get_linear_schedule_with_warmup(opt, 20, EPOCHS * len(train_dl))


@torch.no_grad()
def val_perplexity():
    model.eval()
    out = model(input_ids=val_ids, labels=val_ids)
    model.train()
    return math.exp(out.loss.item())


for epoch in range(EPOCHS):
    t0 = time.time()
    for step, (xb,) in enumerate(train_dl):
        loss = model(input_ids=xb, labels=xb).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        if step % 20 == 0:
            print(f"epoch {epoch} step {step}/{len(train_dl)} loss {loss.item():.4f}")
    print(f"epoch {epoch} done in {time.time() - t0:.0f}s; computing validation perplexity...")
    print(f"epoch {epoch} val_ppl {val_perplexity():.2f}")
