"""Train a tiny GPT-2 to reverse digit strings, then evaluate with batched greedy generation."""
import random
import time

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, processors
from torch.utils.data import DataLoader
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

SEED = 0
random.seed(SEED)
torch.manual_seed(SEED)

# ---------------- tokenizer ----------------
specials = ["<pad>", "<s>", "</s>", "<unk>"]
vocab = {t: i for i, t in enumerate(specials + [str(d) for d in range(10)] + ["="])}
core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
core.post_processor = processors.TemplateProcessing(
    single="<s> $A", special_tokens=[("<s>", vocab["<s>"])]
)
tokenizer = PreTrainedTokenizerFast(
    tokenizer_object=core, pad_token="<pad>", bos_token="<s>", eos_token="</s>", unk_token="<unk>"
)


def make_example():
    n = random.randint(2, 9)
    digits = [str(random.randint(0, 9)) for _ in range(n)]
    prompt = " ".join(digits) + " ="
    answer = " ".join(reversed(digits))
    return prompt, answer


train_pairs = [make_example() for _ in range(6000)]
test_pairs = [make_example() for _ in range(256)]


def collate(batch):
    texts = [p + " " + a + " </s>" for p, a in batch]
    enc = tokenizer(texts, padding=True, return_tensors="pt")
    labels = enc["input_ids"].clone()
    labels[enc["attention_mask"] == 0] = -100
    enc["labels"] = labels
    return enc


# ---------------- model ----------------
config = GPT2Config(
    vocab_size=len(tokenizer), n_positions=32, n_embd=128, n_layer=3, n_head=4,
    bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
    pad_token_id=tokenizer.pad_token_id,
)
model = GPT2LMHeadModel(config)
print(f"params: {sum(p.numel() for p in model.parameters())/1e6:.2f}M")

loader = DataLoader(train_pairs, batch_size=64, shuffle=True, collate_fn=collate)
opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
EPOCHS = 6
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=EPOCHS * len(loader))

t0 = time.time()
for epoch in range(EPOCHS):
    model.train()
    tot = 0.0
    for step, batch in enumerate(loader):
        out = model(**batch)
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        tot += out.loss.item()
    print(f"epoch {epoch} train_loss {tot/len(loader):.4f} ({time.time()-t0:.0f}s)")


# ---------------- evaluation ----------------
@torch.no_grad()
def evaluate(pairs, batch_size=32):
    model.eval()
    correct = 0
    shown = 0
    for i in range(0, len(pairs), batch_size):
        chunk = pairs[i : i + batch_size]
        enc = tokenizer([p for p, _ in chunk], padding=True, return_tensors="pt")
        gen = model.generate(**enc, max_new_tokens=12, do_sample=False)
        new_tokens = gen[:, enc["input_ids"].shape[1]:]
        preds = tokenizer.batch_decode(new_tokens, skip_special_tokens=True)
        for (p, a), pred in zip(chunk, preds):
            ok = pred.strip() == a
            correct += ok
            if not ok and shown < 5:
                print(f"  MISS prompt={p!r} expected={a!r} got={pred.strip()!r}")
                shown += 1
    return correct / len(pairs)


acc = evaluate(test_pairs)
print(f"test exact-match accuracy (batched generate): {acc:.3f}")
