"""Train a tiny GPT-2 support bot from scratch on canned dialogues, then chat with it."""
import random
import time

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

random.seed(0)
torch.manual_seed(0)

INTENTS = {
    "where is my order": "let me check the status of your order for you",
    "i want a refund": "refunds are processed within five business days",
    "how do i reset my password": "click forgot password on the login page",
    "can i change my address": "you can edit the address under account settings",
    "do you ship abroad": "we ship to most countries in europe and asia",
    "my package is damaged": "sorry about that please send us a photo of the package",
}
OPENERS = ["", "hi", "hello", "hey", "excuse me", "good morning"]


def make_dialogues(n):
    rows = []
    for _ in range(n):
        q, a = random.choice(list(INTENTS.items()))
        opener = random.choice(OPENERS)
        rows.append(f"user : {opener} {q} ? bot : {a} .".replace("  ", " "))
    return rows


# ---- tokenizer ---------------------------------------------------------------
dialogues = make_dialogues(2000)
tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tok.train_from_iterator(dialogues, trainers.WordLevelTrainer(special_tokens=["<pad>", "<unk>", "<s>", "</s>"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<s>", eos_token="</s>",
                                    pad_token="<pad>", unk_token="<unk>")
print(f"vocab size: {len(tokenizer)}")

# ---- model -------------------------------------------------------------------
config = GPT2Config(vocab_size=len(tokenizer), n_positions=32, n_embd=64, n_layer=2, n_head=4,
                    bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                    pad_token_id=tokenizer.pad_token_id)
model = GPT2LMHeadModel(config)
print(f"model params: {sum(p.numel() for p in model.parameters()) / 1e3:.0f}k")

corpus = [f"<s> {d} </s>" for d in dialogues]
enc = tokenizer(corpus, padding=True, return_tensors="pt")
labels = enc.input_ids.masked_fill(enc.attention_mask == 0, -100)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)

model.train()
t0 = time.time()
for step in range(1, 101):
    idx = torch.randint(0, len(corpus), (16,))
    out = model(input_ids=enc.input_ids[idx], attention_mask=enc.attention_mask[idx], labels=labels[idx])
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    if step % 20 == 0:
        print(f"step {step:4d} | loss {out.loss.item():.4f} | {time.time() - t0:.1f}s", flush=True)


# ---- chat --------------------------------------------------------------------
@torch.no_grad()
def reply(user_text):
    """Greedy decoding, stop at end-of-sequence."""
    model.eval()
    ids = tokenizer(f"<s> user : {user_text} ? bot :", return_tensors="pt").input_ids
    generated = []
    while True:
        logits = model(input_ids=ids[:, -config.n_positions:]).logits
        next_id = logits[0, -1].argmax().item()
        if next_id == tokenizer.eos_token:
            break
        generated.append(next_id)
        ids = torch.cat([ids, torch.tensor([[next_id]])], dim=1)
    return tokenizer.decode(generated)


print("\n--- chat test ---", flush=True)
for question in ["where is my order", "hello i want a refund", "do you ship abroad"]:
    print(f"user: {question}", flush=True)
    print(f"bot:  {reply(question)}", flush=True)
