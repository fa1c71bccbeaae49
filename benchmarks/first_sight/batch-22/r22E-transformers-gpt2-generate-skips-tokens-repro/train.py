"""Fine-tune a small GPT-2 (from config) on a synthetic sequence-continuation task and
check greedy generations on held-out prompts."""
import random
import time

import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

random.seed(0)
torch.manual_seed(0)
torch.set_num_threads(1)

N_TRAIN, N_EVAL, CONT_LEN, EPOCHS = 4000, 128, 4, 4

specials = ["[PAD]", "[BOS]", "[EOS]", "[UNK]"]
vocab = {t: i for i, t in enumerate(specials + [str(i) for i in range(64)] + ["|"])}
core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, pad_token="[PAD]", bos_token="[BOS]",
                                    eos_token="[EOS]", unk_token="[UNK]")


def make_example():
    start, step, n = random.randint(0, 40), random.randint(1, 3), random.randint(2, 9)
    seq = [(start + i * step) % 64 for i in range(n + CONT_LEN)]
    return "[BOS] " + " ".join(map(str, seq[:n])) + " |", " ".join(map(str, seq[n:]))


train_data = [make_example() for _ in range(N_TRAIN)]
eval_data = [make_example() for _ in range(N_EVAL)]

config = GPT2Config(vocab_size=len(vocab), n_positions=32, n_embd=96, n_layer=2, n_head=4,
                    bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                    pad_token_id=tokenizer.pad_token_id)
model = GPT2LMHeadModel(config)
print(f"params: {sum(p.numel() for p in model.parameters())/1e6:.2f}M")


def collate(batch):
    enc = tokenizer([p + " " + t + " [EOS]" for p, t in batch], padding=True, return_tensors="pt")
    ids, mask = enc["input_ids"], enc["attention_mask"]
    labels = ids.masked_fill(mask == 0, -100)
    return {"input_ids": ids[:, :-1], "attention_mask": mask[:, :-1], "labels": labels[:, 1:]}


loader = torch.utils.data.DataLoader(train_data, batch_size=64, shuffle=True, collate_fn=collate)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=EPOCHS * len(loader), pct_start=0.1)

t0 = time.time()
model.train()
for epoch in range(EPOCHS):
    total = 0.0
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        total += loss.item()
    print(f"epoch {epoch} train_loss {total/len(loader):.4f} ({time.time()-t0:.0f}s)")

# ---- held-out generation ----
model.eval()
tokenizer.padding_side = "left"
correct = 0
for i in range(0, N_EVAL, 32):
    chunk = eval_data[i:i + 32]
    enc = tokenizer([p for p, _ in chunk], padding=True, return_tensors="pt")
    with torch.no_grad():
        gen = model.generate(**enc, max_new_tokens=CONT_LEN, do_sample=False,
                             pad_token_id=tokenizer.pad_token_id)
    preds = tokenizer.batch_decode(gen[:, enc["input_ids"].shape[1]:], skip_special_tokens=True)
    for j, ((p, t), pred) in enumerate(zip(chunk, preds)):
        correct += pred.strip() == t
        if i == 0 and j < 6:
            print(f"  {p!r:38} target={t!r:15} pred={pred.strip()!r}")
print(f"held-out exact match: {correct}/{N_EVAL} = {correct/N_EVAL:.3f}")
