"""Train a small GPT-2 (from config) on a synthetic 'expand the code' task with gradient
checkpointing, then run the generation-based eval we use for the nightly report."""
import random
import time

import torch
from transformers import GPT2Config, GPT2LMHeadModel, set_seed

set_seed(0)
random.seed(0)
torch.set_num_threads(1)

VOCAB, BOS, SEP, EOS, PAD = 512, 1, 2, 3, 0
SRC_LEN, EXPAND = 32, 4          # each source token expands to 4 output tokens -> 128-token targets
TGT_LEN = SRC_LEN * EXPAND


def expand(tok):
    return [(tok * k + 7) % (VOCAB - 8) + 8 for k in range(1, EXPAND + 1)]


def example():
    src = [random.randrange(8, VOCAB) for _ in range(SRC_LEN)]
    tgt = [t for s in src for t in expand(s)]
    return [BOS] + src + [SEP], tgt + [EOS]


config = GPT2Config(vocab_size=VOCAB, n_positions=256, n_embd=128, n_layer=4, n_head=4,
                    bos_token_id=BOS, eos_token_id=EOS, pad_token_id=PAD)
model = GPT2LMHeadModel(config)

# memory is tight on the nightly box: trade compute for activations
model.gradient_checkpointing_enable()
model.config.use_cache = False
model.generation_config.use_cache = False

STEPS = 80
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=STEPS, pct_start=0.1)
model.train()
t0 = time.time()
for step in range(STEPS):
    batch = [example() for _ in range(16)]
    ids = torch.tensor([p + t for p, t in batch])
    labels = ids.clone()
    labels[:, : SRC_LEN + 2] = -100
    loss = model(input_ids=ids, labels=labels).loss
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    sched.step()
    opt.zero_grad()
    if step % 20 == 0 or step == STEPS - 1:
        print(f"step {step:3d} loss {loss.item():.4f}  ({(time.time()-t0)/(step+1):.3f}s/step)", flush=True)
print(f"training done in {time.time()-t0:.1f}s")

# ---------------- generation eval ----------------
model.eval()
eval_set = [example() for _ in range(48)]
n_tokens, tok_acc, t0 = 0, 0.0, time.time()
for i in range(0, len(eval_set), 16):
    chunk = eval_set[i:i + 16]
    prompts = torch.tensor([p for p, _ in chunk])
    with torch.no_grad():
        out = model.generate(input_ids=prompts, attention_mask=torch.ones_like(prompts),
                             max_new_tokens=TGT_LEN + 1, do_sample=False, pad_token_id=PAD)
    gen = out[:, prompts.shape[1]:]
    n_tokens += gen.numel()
    for row, (_, tgt) in zip(gen.tolist(), chunk):
        tok_acc += sum(a == b for a, b in zip(row, tgt)) / len(tgt)
    el = time.time() - t0
    print(f"eval batch {i//16}: {n_tokens} tokens generated, {n_tokens/el:.1f} tok/s", flush=True)
print(f"eval: token acc {tok_acc/len(eval_set):.3f}, {time.time()-t0:.1f}s total, {n_tokens/(time.time()-t0):.1f} tok/s")
