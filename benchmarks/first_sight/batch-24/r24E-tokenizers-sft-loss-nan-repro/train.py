"""Supervised fine-tuning of a small chat model on synthetic document QA (prompt tokens masked)."""
import math
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from torch.utils.data import DataLoader
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

random.seed(1)
torch.manual_seed(1)

MAX_LEN = 128
WORDS = [f"w{i}" for i in range(300)]
SPECIAL = ["<pad>", "<unk>", "<|system|>", "<|user|>", "<|assistant|>", "<|end|>"]
QWORDS = ["which", "word", "comes", "first", "in", "the", "document", "?", "answer", "briefly", "."]

vocab = {t: i for i, t in enumerate(SPECIAL + QWORDS + WORDS)}
backend = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tok = PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>", unk_token="<unk>",
                              eos_token="<|end|>", additional_special_tokens=SPECIAL[2:5])
tok.chat_template = (
    "{% for m in messages %}<|{{ m['role'] }}|> {{ m['content'] }} <|end|> {% endfor %}"
    "{% if add_generation_prompt %}<|assistant|> {% endif %}"
)


def make_conversation():
    n = random.choice([random.randint(10, 60), random.randint(120, 220)])
    doc = [random.choice(WORDS) for _ in range(n)]
    return [
        {"role": "system", "content": "answer briefly ."},
        {"role": "user", "content": " ".join(doc) + " which word comes first in the document ?"},
        {"role": "assistant", "content": f"{doc[0]} {doc[0]}"},
    ]


def build_example(msgs):
    full = tok.apply_chat_template(msgs, tokenize=False)
    prompt = tok.apply_chat_template(msgs[:-1], tokenize=False, add_generation_prompt=True)
    ids = tok(full, truncation=True, max_length=MAX_LEN)["input_ids"]
    n_prompt = len(tok(prompt)["input_ids"])
    labels = [-100] * min(n_prompt, len(ids)) + ids[n_prompt:]
    return {"input_ids": ids, "labels": labels}


train = [build_example(make_conversation()) for _ in range(3000)]
print("example:", tok.apply_chat_template(make_conversation()[:2], tokenize=False)[:120], "...")
print(f"{len(train)} training examples, max_len={MAX_LEN}")


def collate(batch):
    L = max(len(b["input_ids"]) for b in batch)
    ids = torch.full((len(batch), L), tok.pad_token_id)
    lab = torch.full((len(batch), L), -100)
    att = torch.zeros((len(batch), L), dtype=torch.long)
    for i, b in enumerate(batch):
        n = len(b["input_ids"])
        ids[i, :n] = torch.tensor(b["input_ids"])
        lab[i, :n] = torch.tensor(b["labels"])
        att[i, :n] = 1
    return {"input_ids": ids, "attention_mask": att, "labels": lab}


cfg = GPT2Config(vocab_size=len(tok), n_positions=MAX_LEN, n_embd=128, n_layer=2, n_head=4,
                 pad_token_id=tok.pad_token_id, bos_token_id=tok.eos_token_id, eos_token_id=tok.eos_token_id)
model = GPT2LMHeadModel(cfg)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
loader = DataLoader(train, batch_size=4, shuffle=True, collate_fn=collate)

model.train()
running, seen = 0.0, 0
for step, batch in enumerate(loader, 1):
    loss = model(**batch).loss
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    opt.zero_grad(set_to_none=True)
    running += loss.item()
    seen += 1
    if step % 25 == 0:
        print(f"step {step:4d}  loss {running / seen:.4f}")
        running, seen = 0.0, 0
    if step == 400:
        break

weights_ok = all(torch.isfinite(p).all() for p in model.parameters())
print("all weights finite:", weights_ok)
