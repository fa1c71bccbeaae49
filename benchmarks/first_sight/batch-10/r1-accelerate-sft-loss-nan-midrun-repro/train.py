"""Instruction-tune a tiny GPT-2 on our support-ticket QA pairs (accelerate training loop).

Only the answer tokens are supervised: prompt positions get label -100.
Sequences are truncated to MAX_LEN to keep memory down.
"""
import random

import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader
from transformers import GPT2Config, GPT2LMHeadModel, get_linear_schedule_with_warmup

torch.set_num_threads(2)
random.seed(0)
torch.manual_seed(0)

MAX_LEN = 96
PRODUCTS = ["router", "modem", "printer", "laptop", "headset", "webcam", "monitor", "dock"]
ISSUES = {"no power": "check the adapter", "slow": "restart the device",
          "no signal": "reseat the cable", "noisy": "update the firmware",
          "overheats": "clean the vents", "blurry": "reset to defaults"}
HISTORY = ["customer called twice before", "ticket escalated from tier one",
           "previous agent suggested a reboot", "warranty status unknown",
           "customer is on the premium plan", "device bought last spring",
           "customer tried another outlet", "logs were attached by email"]


def make_example():
    prod = random.choice(PRODUCTS)
    issue, fix = random.choice(list(ISSUES.items()))
    notes = ""
    if random.random() < 0.35:  # some tickets come with agent notes pasted in
        notes = "notes: " + "; ".join(random.sample(HISTORY, k=random.randint(3, 5))) + ". "
    prompt = f"{notes}ticket: my {prod} is {issue}. reply:"
    answer = f" please {fix}.<eos>"
    return prompt, answer


chars = sorted(set("abcdefghijklmnopqrstuvwxyz .,:;'"))
stoi = {"<pad>": 0, "<eos>": 1}
for c in chars:
    stoi[c] = len(stoi)


def encode(text):
    ids = []
    while text:
        if text.startswith("<eos>"):
            ids.append(stoi["<eos>"]); text = text[5:]
        else:
            ids.append(stoi[text[0]]); text = text[1:]
    return ids


class TicketDataset(torch.utils.data.Dataset):
    def __init__(self, n):
        self.items = []
        for _ in range(n):
            p, a = make_example()
            p_ids, a_ids = encode(p), encode(a)
            ids = (p_ids + a_ids)[:MAX_LEN]
            labels = ([-100] * len(p_ids) + a_ids)[:MAX_LEN]
            self.items.append((ids, labels))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        ids, labels = self.items[i]
        return {"input_ids": ids, "labels": labels}


def collate(batch):
    L = max(len(b["input_ids"]) for b in batch)
    ids = torch.zeros(len(batch), L, dtype=torch.long)
    lab = torch.full((len(batch), L), -100, dtype=torch.long)
    att = torch.zeros(len(batch), L, dtype=torch.long)
    for i, b in enumerate(batch):
        n = len(b["input_ids"])
        ids[i, :n] = torch.tensor(b["input_ids"])
        lab[i, :n] = torch.tensor(b["labels"])
        att[i, :n] = 1
    return {"input_ids": ids, "labels": lab, "attention_mask": att}


train_ds, eval_ds = TicketDataset(1000), TicketDataset(200)

config = GPT2Config(vocab_size=len(stoi), n_positions=128, n_embd=64, n_layer=2, n_head=2,
                    bos_token_id=1, eos_token_id=1, pad_token_id=0)
model = GPT2LMHeadModel(config)

EPOCHS, BS, LR = 2, 4, 1e-3
accelerator = Accelerator(cpu=True)
train_dl = DataLoader(train_ds, batch_size=BS, shuffle=True, collate_fn=collate)
eval_dl = DataLoader(eval_ds, batch_size=32, collate_fn=collate)
opt = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
sched = get_linear_schedule_with_warmup(opt, 20, EPOCHS * len(train_dl))
model, opt, train_dl, eval_dl, sched = accelerator.prepare(model, opt, train_dl, eval_dl, sched)

step = 0
for epoch in range(EPOCHS):
    model.train()
    running, epoch_sum = 0.0, 0.0
    for batch in train_dl:
        out = model(**batch)
        accelerator.backward(out.loss)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        step += 1
        running += out.loss.item()
        epoch_sum += out.loss.item()
        if step % 50 == 0:
            accelerator.print(f"epoch {epoch} step {step:4d}  loss {running / 50:.4f}  lr {sched.get_last_lr()[0]:.2e}")
            running = 0.0
    model.eval()
    losses = []
    with torch.no_grad():
        for batch in eval_dl:
            losses.append(model(**batch).loss.item())
    accelerator.print(f"== epoch {epoch}  train_loss {epoch_sum / len(train_dl):.4f}  "
                      f"eval_loss {sum(losses) / len(losses):.4f}")

itos = {v: k for k, v in stoi.items()}
unwrapped = accelerator.unwrap_model(model)
for prompt in ["ticket: my printer is overheats. reply:", "ticket: my router is slow. reply:"]:
    ids = torch.tensor([encode(prompt)])
    out = unwrapped.generate(ids, max_new_tokens=25, do_sample=False, pad_token_id=0)
    accelerator.print(prompt, repr("".join(itos[t] for t in out[0, ids.shape[1]:].tolist())))
