import math
import time

import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)

VOCAB = 512
SEQ_LEN = 32
BATCH = 16
STEPS = 200


def make_batch(bsz):
    # each "word" is emitted twice in a row: w1 w1 w2 w2 w3 w3 ...
    words = torch.randint(0, VOCAB, (bsz, (SEQ_LEN + 1) // 2 + 1))
    return words.repeat_interleave(2, dim=1)[:, : SEQ_LEN + 1]


config = GPT2Config(vocab_size=VOCAB, n_positions=128, n_embd=128, n_layer=2, n_head=4, bos_token_id=0, eos_token_id=0)
model = GPT2LMHeadModel(config)
print(f"params: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M")
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)

print(f"uniform baseline loss: {math.log(VOCAB):.3f}")
model.train()
t0 = time.time()
for step in range(1, STEPS + 1):
    tokens = make_batch(BATCH)
    input_ids = tokens[:, :-1]
    labels = tokens[:, 1:]
    out = model(input_ids=input_ids, labels=labels)
    opt.zero_grad()
    out.loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 20 == 0 or step == 1:
        print(f"step {step:4d} loss {out.loss.item():.4f} ({time.time() - t0:.1f}s)", flush=True)
