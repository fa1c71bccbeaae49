"""Pretrain a tiny GPT on the help-center corpus: train BPE, pack docs into one token stream, train."""
import random
import time

import numpy as np
import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import GPT2Config, GPT2LMHeadModel

SEED = 11
N_DOCS = 20000
CTX = 128
random.seed(SEED)
torch.manual_seed(SEED)

SUBJ = ["your invoice", "the mobile app", "a refund", "two-factor login", "the export job", "your subscription",
        "the shipping label", "a team workspace", "the api token", "password reset"]
VERB = ["can be updated from", "is listed under", "is processed within three days by", "is disabled in",
        "needs admin rights in", "syncs every hour with", "shows an error in"]
OBJ = ["the billing page", "account settings", "the admin console", "the partner portal", "the desktop client",
       "the reports tab", "the security center"]
TAIL = ["contact support if it persists.", "see the linked guide.", "this applies to all plans.",
        "only owners can change it.", "it may take a few minutes.", "no action is needed."]


def make_doc():
    n = random.randint(4, 14)
    return " ".join(f"{random.choice(SUBJ).capitalize()} {random.choice(VERB)} {random.choice(OBJ)}; "
                    f"{random.choice(TAIL)}" for _ in range(n))


def train_tokenizer(docs):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=1000, special_tokens=["<|endoftext|>"])
    tok.train_from_iterator(docs, trainer=trainer)
    return tok


def pack(tok, docs, eos_id):
    stream = np.zeros(0, dtype=np.int64)
    t0 = t_last = time.time()
    for i, doc in enumerate(docs, 1):
        ids = tok.encode(doc).ids
        stream = np.append(stream, ids + [eos_id])
        if i % 2000 == 0:
            now = time.time()
            print(f"  packed {i:6d}/{len(docs)} docs | {len(stream):9d} tokens | "
                  f"{2000 / (now - t_last):8.0f} docs/s | elapsed {now - t0:6.1f}s", flush=True)
            t_last = now
    return stream


def main():
    t0 = time.time()
    docs = [make_doc() for _ in range(N_DOCS)]
    tok = train_tokenizer(docs)
    eos_id = tok.token_to_id("<|endoftext|>")
    print(f"corpus: {N_DOCS} docs, tokenizer vocab {tok.get_vocab_size()} ({time.time() - t0:.1f}s)", flush=True)

    print("packing token stream ...", flush=True)
    t1 = time.time()
    stream = pack(tok, docs, eos_id)
    print(f"packed {len(stream)} tokens in {time.time() - t1:.1f}s", flush=True)

    n_blocks = len(stream) // (CTX + 1)
    blocks = torch.from_numpy(stream[: n_blocks * (CTX + 1)].reshape(n_blocks, CTX + 1))
    cfg = GPT2Config(vocab_size=tok.get_vocab_size(), n_positions=CTX, n_embd=128, n_layer=2, n_head=4,
                     bos_token_id=eos_id, eos_token_id=eos_id)
    model = GPT2LMHeadModel(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    model.train()
    for step in range(1, 61):
        batch = blocks[torch.randint(0, n_blocks, (16,))]
        out = model(input_ids=batch[:, :-1], labels=batch[:, :-1])
        out.loss.backward(); opt.step(); opt.zero_grad()
        if step % 20 == 0:
            print(f"step {step} loss {out.loss.item():.3f}", flush=True)
    print(f"total wall time {time.time() - t0:.1f}s", flush=True)


if __name__ == "__main__":
    main()
