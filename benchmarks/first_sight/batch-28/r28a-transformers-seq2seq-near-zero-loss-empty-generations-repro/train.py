"""Seq2seq normaliser for part numbers scraped from supplier PDFs.

Suppliers print part numbers in their own order; the target is the canonical
order (here: the reversed token sequence). Small BART trained from scratch.
"""
import random
import time

import torch
from transformers import BartConfig, BartForConditionalGeneration

random.seed(0)
torch.manual_seed(0)
PAD, BOS, EOS = 0, 1, 2
N_SYM = 20                       # symbols 3..22
MAXLEN = 14


def make_pair():
    n = random.randint(5, 10)
    src = [random.randint(3, 3 + N_SYM - 1) for _ in range(n)]
    return src + [EOS], src[::-1] + [EOS]


def batchify(pairs):
    S = max(len(s) for s, _ in pairs)
    T = max(len(t) for _, t in pairs)
    src = torch.full((len(pairs), S), PAD)
    tgt = torch.full((len(pairs), T), -100)
    for k, (s, t) in enumerate(pairs):
        src[k, :len(s)] = torch.tensor(s)
        tgt[k, :len(t)] = torch.tensor(t)
    return src, (src != PAD).long(), tgt


cfg = BartConfig(vocab_size=3 + N_SYM, d_model=128, encoder_layers=2, decoder_layers=2,
                 encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=256,
                 decoder_ffn_dim=256, max_position_embeddings=32, pad_token_id=PAD,
                 bos_token_id=BOS, eos_token_id=EOS, decoder_start_token_id=EOS,
                 forced_eos_token_id=EOS, dropout=0.1)
model = BartForConditionalGeneration(cfg)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

val = [make_pair() for _ in range(400)]


@torch.no_grad()
def exact_match():
    model.eval()
    src, mask, tgt = batchify(val)
    out = model.generate(input_ids=src, attention_mask=mask, max_new_tokens=MAXLEN, num_beams=1,
                         do_sample=False)
    hits = 0
    for k, (_, t) in enumerate(val):
        pred = [x for x in out[k].tolist() if x not in (PAD, BOS, EOS)]
        hits += pred == t[:-1]
    model.train()
    return hits / len(val), out[0].tolist(), val[0][1]


t0 = time.time()
for step in range(1, 1001):
    src, mask, labels = batchify([make_pair() for _ in range(64)])
    dec_in = labels.masked_fill(labels == -100, PAD)
    out = model(input_ids=src, attention_mask=mask, decoder_input_ids=dec_in, labels=labels)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f"step {step:4d} loss {out.loss.item():.4f} ({time.time() - t0:.0f}s)", flush=True)
    if step % 250 == 0:
        em, pred, gold = exact_match()
        print(f"  val exact_match {em:.3f} | example pred {pred} gold {gold}", flush=True)
