"""Small causal-LM fine-tune on support-ticket text (GPT-2 style model, custom BPE tokenizer)."""
import math
import random

import torch
from torch.utils.data import DataLoader, Dataset
from tokenizers import Tokenizer, models, pre_tokenizers, decoders, trainers
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast, get_cosine_schedule_with_warmup

random.seed(0)
torch.manual_seed(0)

PRODUCTS = ["router", "laptop", "printer", "monitor", "keyboard", "headset", "camera", "tablet"]
ISSUES = ["does not turn on", "keeps restarting", "is very slow", "shows an error code",
          "will not connect to wifi", "makes a loud noise", "has a cracked screen"]
ACTIONS = ["please reset it", "we sent a replacement", "update the firmware", "check the power cable",
           "try a different port", "a technician will call you"]


def make_ticket():
    p, i, a = random.choice(PRODUCTS), random.choice(ISSUES), random.choice(ACTIONS)
    n = random.randint(100, 9999)
    return f"ticket {n}: my {p} {i}. reply: sorry about your {p}, {a}."


corpus = [make_ticket() for _ in range(3000)]

# ---- tokenizer ----
bpe = Tokenizer(models.BPE(unk_token=None))
bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
bpe.decoder = decoders.ByteLevel()
bpe_trainer = trainers.BpeTrainer(vocab_size=600, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
bpe.train_from_iterator(corpus, trainer=bpe_trainer)
tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|endoftext|>", bos_token="<|endoftext|>")
print(f"tokenizer vocab size: {len(tokenizer)}")

# ---- model ----
config = GPT2Config(vocab_size=len(tokenizer), n_positions=128, n_embd=128, n_layer=2, n_head=4,
                    bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id)
model = GPT2LMHeadModel(config)
print(f"model params: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M")

# ---- data ----
tokenizer.add_special_tokens({"pad_token": "<pad>"})


class TicketDataset(Dataset):
    def __init__(self, texts):
        self.texts = texts

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, idx):
        return self.texts[idx] + tokenizer.eos_token


def collate(batch):
    enc = tokenizer(batch, padding=True, truncation=True, max_length=64, return_tensors="pt")
    labels = enc["input_ids"].clone()
    labels[enc["attention_mask"] == 0] = -100
    enc["labels"] = labels
    return enc


split = int(0.9 * len(corpus))
train_dl = DataLoader(TicketDataset(corpus[:split]), batch_size=32, shuffle=True, collate_fn=collate)
val_dl = DataLoader(TicketDataset(corpus[split:]), batch_size=64, collate_fn=collate)

epochs = 2
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
scheduler = get_cosine_schedule_with_warmup(optimizer, 50, epochs * len(train_dl))

for epoch in range(epochs):
    model.train()
    for step, batch in enumerate(train_dl):
        out = model(**batch)
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        if step % 20 == 0:
            print(f"epoch {epoch} step {step} loss {out.loss.item():.4f} lr {scheduler.get_last_lr()[0]:.2e}")

    model.eval()
    tot, n = 0.0, 0
    with torch.no_grad():
        for batch in val_dl:
            tot += model(**batch).loss.item()
            n += 1
    print(f"epoch {epoch} val loss {tot / n:.4f} ppl {math.exp(tot / n):.2f}")

prompt = tokenizer("ticket 4242: my printer", return_tensors="pt")
gen = model.generate(**prompt, max_new_tokens=30, do_sample=False, pad_token_id=tokenizer.pad_token_id)
print(tokenizer.decode(gen[0], skip_special_tokens=True))
