"""Pretrain a tiny GPT-2 on synthetic support-ticket text with a BPE tokenizer trained from scratch."""
import math
import random
import time

import torch
from torch.utils.data import DataLoader
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

torch.manual_seed(1)
rng = random.Random(0)

SUBJECTS = ["printer", "laptop", "vpn", "email", "badge", "monitor", "router", "phone", "license"]
VERBS = ["stopped working", "is slow", "keeps rebooting", "cannot connect", "shows an error", "needs a reset"]
EXTRA = ["since the update", "after lunch", "on the third floor", "for the whole team",
         "again today", "every morning", "when I log in", "despite restarting it"]


def make_ticket():
    n_sent = min(int(rng.expovariate(1 / 1.7)) + 1, 40)
    sents = []
    for _ in range(n_sent):
        s = f"the {rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(EXTRA)}"
        sents.append(s)
    return ". ".join(sents) + "."


docs = [make_ticket() for _ in range(6000)]

# --- tokenizer ---
bpe = Tokenizer(models.BPE(unk_token="<unk>"))
bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
bpe.decoder = decoders.ByteLevel()
bpe.train_from_iterator(docs, trainers.BpeTrainer(vocab_size=500, special_tokens=["<pad>", "<unk>", "<eos>"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, pad_token="<pad>", unk_token="<unk>", eos_token="<eos>")

BLOCK = 128
config = GPT2Config(vocab_size=len(tokenizer), n_positions=BLOCK, n_embd=128, n_layer=2, n_head=4,
                    pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.eos_token_id,
                    eos_token_id=tokenizer.eos_token_id)
model = GPT2LMHeadModel(config)
print(f"vocab={len(tokenizer)} params={sum(p.numel() for p in model.parameters())/1e6:.2f}M docs={len(docs)}")


def collate(batch_docs):
    enc = tokenizer([d + tokenizer.eos_token for d in batch_docs], padding=True, truncation=True,
                    return_tensors="pt")
    labels = enc["input_ids"].clone()
    labels[enc["attention_mask"] == 0] = -100
    enc["labels"] = labels
    return enc


loader = DataLoader(docs, batch_size=16, shuffle=True, collate_fn=collate)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.1)
total = 2 * len(loader)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 50) * 0.5 * (1 + math.cos(math.pi * s / total)))

model.train()
step = 0
t0 = time.time()
for epoch in range(2):
    for batch in loader:
        out = model(**batch)
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad(set_to_none=True)
        if step % 25 == 0:
            print(f"epoch {epoch} step {step:4d} loss {out.loss.item():.4f} "
                  f"seq_len {batch['input_ids'].shape[1]} lr {sched.get_last_lr()[0]:.2e} "
                  f"{time.time()-t0:.1f}s", flush=True)
        step += 1

model.save_pretrained("tickets-gpt2")
print("done")
