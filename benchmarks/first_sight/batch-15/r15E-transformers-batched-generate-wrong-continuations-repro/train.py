import random
import string
import time

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

random.seed(0)
torch.manual_seed(0)
LETTERS = list(string.ascii_lowercase)


def make_sequence(length=None):
    start = random.randrange(26)
    step = random.choice([1, 2, 3])
    length = length or random.randint(6, 16)
    return " ".join(LETTERS[(start + i * step) % 26] for i in range(length))


def build_tokenizer():
    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator([" ".join(LETTERS)], trainers.WordLevelTrainer(
        special_tokens=["<unk>", "<|endoftext|>"]))
    t = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<|endoftext|>",
                                eos_token="<|endoftext|>")
    t.pad_token = t.eos_token
    return t


def main():
    tokenizer = build_tokenizer()
    config = GPT2Config(vocab_size=len(tokenizer), n_positions=32, n_embd=96, n_layer=3, n_head=4,
                        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                        pad_token_id=tokenizer.pad_token_id)
    model = GPT2LMHeadModel(config)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)

    t0 = time.time()
    model.train()
    for step in range(1, 601):
        batch = tokenizer([make_sequence() for _ in range(64)], padding=True, return_tensors="pt")
        labels = batch["input_ids"].masked_fill(batch["attention_mask"] == 0, -100)
        loss = model(**batch, labels=labels).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 100 == 0:
            print(f"step {step} loss {loss.item():.4f} ({time.time()-t0:.0f}s)", flush=True)

    model.eval()
    prompts = []
    for _ in range(64):
        seq = make_sequence(length=random.randint(3, 10) + 4).split()
        cut = len(seq) - 4
        prompts.append((" ".join(seq[:cut]), " ".join(seq[cut:])))

    def score(preds):
        return sum(p.split() == t.split() for p, (_, t) in zip(preds, prompts)) / len(prompts)

    single = []
    for prompt, _ in prompts:
        enc = tokenizer(prompt, return_tensors="pt")
        out = model.generate(**enc, max_new_tokens=4, do_sample=False)
        single.append(tokenizer.decode(out[0, enc["input_ids"].shape[1]:], skip_special_tokens=True))
    print(f"exact-match, one prompt at a time: {score(single):.3f}")

    enc = tokenizer([p for p, _ in prompts], padding=True, return_tensors="pt")
    out = model.generate(**enc, max_new_tokens=4, do_sample=False)
    batched = tokenizer.batch_decode(out[:, enc["input_ids"].shape[1]:], skip_special_tokens=True)
    print(f"exact-match, batched (bs={len(prompts)}): {score(batched):.3f}")
    for (prompt, target), s, b in list(zip(prompts, single, batched))[:6]:
        print(f"  prompt={prompt!r:28} target={target!r:10} single={s!r:10} batched={b!r}")


if __name__ == "__main__":
    main()
