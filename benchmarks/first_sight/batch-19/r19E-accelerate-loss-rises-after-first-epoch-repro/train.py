"""Char-level GPT-NeoX on "a+b=c" addition strings; accelerate loop (CPU for now, same script on GPU later)."""
import math
import random

import torch
from torch.utils.data import DataLoader
from accelerate import Accelerator
from accelerate.utils import set_seed
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import GPTNeoXConfig, GPTNeoXForCausalLM, PreTrainedTokenizerFast

set_seed(11)
rng = random.Random(11)

chars = list("0123456789+=")
vocab = {"<pad>": 0, "<eos>": 1, **{c: i + 2 for i, c in enumerate(chars)}}
core = Tokenizer(models.WordLevel(vocab, unk_token="<pad>"))
core.pre_tokenizer = pre_tokenizers.Split("", behavior="isolated")
tok = PreTrainedTokenizerFast(tokenizer_object=core, pad_token="<pad>", eos_token="<eos>")


def sample():
    a, b = rng.randint(0, 999), rng.randint(0, 999)
    return f"{a}+{b}={a + b}"


train_texts = [sample() for _ in range(4500)]
val_texts = [sample() for _ in range(500)]


def collate(texts):
    enc = tok([t + tok.eos_token for t in texts], padding=True, return_tensors="pt")
    enc["labels"] = enc["input_ids"].masked_fill(enc["attention_mask"] == 0, -100)
    return enc


EPOCHS, BATCH, GRAD_ACCUM, PEAK_LR, WARMUP = 3, 32, 2, 2e-3, 20
train_loader = DataLoader(train_texts, batch_size=BATCH, shuffle=True, collate_fn=collate)
val_loader = DataLoader(val_texts, batch_size=128, collate_fn=collate)

cfg = GPTNeoXConfig(vocab_size=len(vocab), hidden_size=96, num_hidden_layers=3, num_attention_heads=4,
                    intermediate_size=256, max_position_embeddings=32, rotary_pct=0.5,
                    pad_token_id=0, eos_token_id=1, bos_token_id=1)
model = GPTNeoXForCausalLM(cfg)
opt = torch.optim.AdamW(model.parameters(), lr=PEAK_LR, weight_decay=0.05)

total_steps = len(train_loader) // GRAD_ACCUM


def lr_lambda(step):
    if step < WARMUP:
        return (step + 1) / WARMUP
    return 1.0 - (step - WARMUP) / (total_steps - WARMUP)


sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
accelerator = Accelerator(cpu=True, gradient_accumulation_steps=GRAD_ACCUM)
model, opt, train_loader, val_loader, sched = accelerator.prepare(model, opt, train_loader, val_loader, sched)


@torch.no_grad()
def evaluate():
    model.eval()
    losses = [model(**b).loss.item() for b in val_loader]
    model.train()
    return sum(losses) / len(losses)


print(f"{len(train_texts)} train strings, {len(train_loader)} batches/epoch, initial val loss {evaluate():.3f}")
step = 0
for epoch in range(EPOCHS):
    running = []
    for batch in train_loader:
        with accelerator.accumulate(model):
            loss = model(**batch).loss
            accelerator.backward(loss)
            if accelerator.sync_gradients:
                gn = accelerator.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
        running.append(loss.item())
        if accelerator.sync_gradients:
            step += 1
            if step % 20 == 0:
                print(f"epoch {epoch} opt_step {step:4d} train_loss {sum(running[-40:]) / len(running[-40:]):.4f} "
                      f"grad_norm {gn.item():.3f}", flush=True)
    print(f"== epoch {epoch} done: train_loss {sum(running) / len(running):.4f} val_loss {evaluate():.4f}")
