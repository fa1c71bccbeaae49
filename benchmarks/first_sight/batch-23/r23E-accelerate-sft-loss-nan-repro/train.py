"""Supervised fine-tuning of a small causal LM on (document, question) -> answer pairs (accelerate, CPU).

Only answer tokens are trained on: prompt tokens get label -100.
"""
import random

import math

import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (
    GPT2Config,
    GPT2LMHeadModel,
    PreTrainedTokenizerFast,
    get_linear_schedule_with_warmup,
    set_seed,
)

set_seed(5)
rng = random.Random(5)

COLORS = ["red", "blue", "green", "black", "white", "silver"]
ITEMS = ["car", "bike", "boat", "lamp", "chair", "phone"]
NOISE = "the of and a to in is was for on that with as by at from this it be are".split()
MAX_LEN = 96


def example():
    item, color = rng.choice(ITEMS), rng.choice(COLORS)
    doc = [rng.choice(NOISE) for _ in range(rng.choice([rng.randint(10, 40), rng.randint(80, 160)]))]
    doc.insert(rng.randint(0, len(doc)), f"the {item} is {color}")
    prompt = "document : " + " ".join(doc) + f" question : what color is the {item} ? answer :"
    return prompt, f" {color}"


words = ["<unk>", "<pad>", "<eos>", "document", ":", "question", "what", "color", "?", "answer"] + COLORS + ITEMS + NOISE
vocab = {w: i for i, w in enumerate(dict.fromkeys(words))}
tk = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
tk.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tk, unk_token="<unk>", pad_token="<pad>", eos_token="<eos>")


class SFTDataset(torch.utils.data.Dataset):
    def __init__(self, n):
        self.items = []
        for _ in range(n):
            prompt, answer = example()
            p_ids = tokenizer(prompt)["input_ids"]
            a_ids = tokenizer(answer)["input_ids"] + [tokenizer.eos_token_id]
            ids = (p_ids + a_ids)[:MAX_LEN]
            labels = ([-100] * len(p_ids) + a_ids)[:MAX_LEN]
            self.items.append({"input_ids": ids, "labels": labels})

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    L = max(len(b["input_ids"]) for b in batch)
    ids = torch.full((len(batch), L), tokenizer.pad_token_id)
    labels = torch.full((len(batch), L), -100)
    mask = torch.zeros((len(batch), L), dtype=torch.long)
    for i, b in enumerate(batch):
        n = len(b["input_ids"])
        ids[i, :n] = torch.tensor(b["input_ids"])
        labels[i, :n] = torch.tensor(b["labels"])
        mask[i, :n] = 1
    return {"input_ids": ids, "attention_mask": mask, "labels": labels}


train_ds, eval_ds = SFTDataset(2400), SFTDataset(200)
config = GPT2Config(vocab_size=len(tokenizer), n_positions=MAX_LEN, n_embd=128, n_layer=2, n_head=4,
                    pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.eos_token_id,
                    eos_token_id=tokenizer.eos_token_id)
model = GPT2LMHeadModel(config)

accelerator = Accelerator(cpu=True)
train_dl = DataLoader(train_ds, batch_size=4, shuffle=True, collate_fn=collate)
eval_dl = DataLoader(eval_ds, batch_size=16, collate_fn=collate)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.0)
scheduler = get_linear_schedule_with_warmup(optimizer, 20, len(train_dl))
model, optimizer, train_dl, eval_dl, scheduler = accelerator.prepare(model, optimizer, train_dl, eval_dl, scheduler)


def evaluate():
    model.eval()
    losses = []
    with torch.no_grad():
        for batch in eval_dl:
            losses.append(model(**batch).loss.item())
    model.train()
    return sum(losses) / len(losses)


model.train()
running = []
for step, batch in enumerate(train_dl, 1):
    loss = model(**batch).loss
    accelerator.backward(loss)
    grad_norm = accelerator.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad()
    running.append(loss.item())
    if step % 25 == 0:
        print(f"step {step}/{len(train_dl)} loss {sum(running) / len(running):.4f} "
              f"grad_norm {grad_norm.item():.3f} lr {scheduler.get_last_lr()[0]:.2e}")
        running = []
    if step % 200 == 0:
        ev = evaluate()
        print(f"step {step} eval_loss {ev:.4f} eval_ppl {math.exp(ev) if ev == ev else float('nan'):.3f}")

model.eval()
hits = 0
for _ in range(50):
    prompt, answer = example()
    ids = tokenizer(prompt, return_tensors="pt")
    ids = {k: v[:, -(MAX_LEN - 2):] for k, v in ids.items()}
    with torch.no_grad():
        out = model.generate(**ids, max_new_tokens=1, do_sample=False, pad_token_id=tokenizer.pad_token_id)
    hits += tokenizer.decode(out[0, -1:]).strip() == answer.strip()
print(f"answer accuracy on 50 fresh prompts: {hits}/50")
