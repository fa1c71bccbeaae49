import math
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from torch.utils.data import DataLoader, Dataset, Sampler
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

random.seed(0)
torch.manual_seed(0)

WORDS = [f"w{i}" for i in range(200)]
SPECIAL = ["[PAD]", "[EOS]", "[UNK]", "summary:", "->"]
vocab = {t: i for i, t in enumerate(SPECIAL + WORDS)}
tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", eos_token="[EOS]", unk_token="[UNK]")

MAX_LEN = 64


def make_pair():
    n = random.choice([random.randint(8, 40)] * 6 + [random.randint(40, 90)])
    doc = random.choices(WORDS, k=n)
    answer = sorted(set(doc[:6]))[:4]          # "summary" = first few distinct words, sorted
    return "summary: " + " ".join(doc) + " ->", " ".join(answer) + " [EOS]"


class SFTDataset(Dataset):
    def __init__(self, pairs):
        self.examples = []
        for prompt, answer in pairs:
            p_ids = tokenizer(prompt)["input_ids"]
            full = tokenizer(prompt + " " + answer, truncation=True, max_length=MAX_LEN)["input_ids"]
            labels = [-100] * len(p_ids) + full[len(p_ids):]
            self.examples.append((full, labels[: len(full)]))

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, i):
        return self.examples[i]


class LengthGroupedSampler(Sampler):
    """Batches of similar length to cut padding; batch order is shuffled every epoch."""

    def __init__(self, lengths, batch_size):
        order = sorted(range(len(lengths)), key=lambda i: lengths[i])
        self.batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]

    def __iter__(self):
        random.shuffle(self.batches)
        return iter(self.batches)

    def __len__(self):
        return len(self.batches)


def collate(batch):
    L = max(len(x) for x, _ in batch)
    ids = torch.full((len(batch), L), tokenizer.pad_token_id)
    labels = torch.full((len(batch), L), -100)
    mask = torch.zeros((len(batch), L), dtype=torch.long)
    for i, (x, y) in enumerate(batch):
        ids[i, :len(x)], labels[i, :len(y)], mask[i, :len(x)] = torch.tensor(x), torch.tensor(y), 1
    return {"input_ids": ids, "attention_mask": mask, "labels": labels}


ds = SFTDataset([make_pair() for _ in range(3000)])
loader = DataLoader(ds, batch_sampler=LengthGroupedSampler([len(x) for x, _ in ds.examples], 16),
                    collate_fn=collate)

model = GPT2LMHeadModel(GPT2Config(vocab_size=len(vocab), n_positions=MAX_LEN, n_embd=64, n_layer=2, n_head=4,
                                   pad_token_id=tokenizer.pad_token_id,
                                   bos_token_id=tokenizer.eos_token_id, eos_token_id=tokenizer.eos_token_id))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 50))

step = 0
for epoch in range(2):
    window, epoch_losses = [], []
    for batch in loader:
        loss = model(**batch).loss
        loss.backward()
        gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        window.append(loss.item())
        epoch_losses.append(loss.item())
        if not math.isfinite(loss.item()):
            print(f"  non-finite loss at step {step} (grad_norm {gnorm.item():.3f}, seq_len {batch['input_ids'].shape[1]})")
        if step % 40 == 0:
            print(f"epoch {epoch} step {step:4d} loss(avg40) {sum(window) / len(window):.4f} lr {sched.get_last_lr()[0]:.2e}")
            window = []
        step += 1
    print(f"== epoch {epoch} mean loss {sum(epoch_losses) / len(epoch_losses):.4f}")

nan_params = sum(int(torch.isnan(p).any()) for p in model.parameters())
print(f"parameters containing NaN: {nan_params}/{len(list(model.parameters()))}")
