"""Tiny GPT-2 trained from scratch on a sequence-continuation task, then evaluated with generate()."""
import random
import time

import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

random.seed(0)
torch.manual_seed(0)

MOD = 20
N_NEW = 4


def build_tokenizer():
    vocab = {"<pad>": 0, "<bos>": 1, "<eos>": 2, "=": 3}
    for i in range(MOD):
        vocab[str(i)] = len(vocab)
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<pad>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", bos_token="<bos>",
                                   eos_token="<eos>")


def make_example():
    """prompt: an arithmetic progression of 2..8 numbers (mod 20) then '='; answer: the next 4."""
    start, step, n = random.randrange(MOD), random.randrange(1, 4), random.randint(2, 8)
    seq = [(start + i * step) % MOD for i in range(n + N_NEW)]
    prompt = " ".join(map(str, seq[:n])) + " ="
    answer = " ".join(map(str, seq[n:]))
    return prompt, answer


def main():
    tokenizer = build_tokenizer()
    cfg = GPT2Config(vocab_size=len(tokenizer), n_positions=32, n_embd=128, n_layer=3, n_head=4,
                     bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                     pad_token_id=tokenizer.pad_token_id)
    model = GPT2LMHeadModel(cfg)
    print(f"model params: {model.num_parameters():,}")

    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    model.train()
    t0 = time.time()
    for step in range(1, 801):
        batch = [make_example() for _ in range(64)]
        texts = [f"{p} {a} <eos>" for p, a in batch]
        enc = tokenizer(texts, return_tensors="pt", padding=True)
        labels = enc.input_ids.masked_fill(enc.attention_mask == 0, -100)
        out = model(**enc, labels=labels)
        opt.zero_grad()
        out.loss.backward()
        opt.step()
        if step % 100 == 0:
            print(f"step {step:4d}  loss {out.loss.item():.4f}  ({time.time() - t0:.1f}s)")

    model.eval()
    test = [make_example() for _ in range(256)]

    # sanity check, one prompt at a time
    correct = 0
    for p, a in test[:32]:
        enc = tokenizer([p], return_tensors="pt")
        gen = model.generate(**enc, max_new_tokens=N_NEW, do_sample=False)
        pred = tokenizer.decode(gen[0, enc.input_ids.shape[1]:], skip_special_tokens=True).strip()
        correct += pred == a
    print(f"exact match (one prompt at a time, first 32): {correct / 32:.3f}")

    # full eval, batched
    correct = 0
    for i in range(0, len(test), 32):
        chunk = test[i:i + 32]
        enc = tokenizer([p for p, _ in chunk], return_tensors="pt", padding=True)
        gen = model.generate(**enc, max_new_tokens=N_NEW, do_sample=False)
        preds = tokenizer.batch_decode(gen[:, enc.input_ids.shape[1]:], skip_special_tokens=True)
        for (p, a), pred in zip(chunk, preds):
            correct += pred.strip() == a
        if i == 0:
            for (p, a), pred in list(zip(chunk, preds))[:6]:
                print(f"  prompt {p!r:32} expected {a!r:14} got {pred.strip()!r}")
    print(f"exact match (batched, 256 prompts): {correct / len(test):.3f}")


if __name__ == "__main__":
    main()
