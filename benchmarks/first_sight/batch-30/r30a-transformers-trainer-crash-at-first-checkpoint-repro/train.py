"""Tiny character-level GRU language model for log-line completion, trained with the HF Trainer."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
import transformers
from torch.utils.data import Dataset
from transformers import Trainer, TrainingArguments

SERVICES = ["auth", "billing", "search", "cart", "gateway"]
LEVELS = ["INFO", "WARN", "ERROR", "DEBUG"]
MSGS = ["request served in {} ms", "cache miss for key {}", "retrying upstream call #{}",
        "user {} logged in", "queue depth {}", "payment {} declined"]


def synth_lines(n, seed=0):
    rnd = random.Random(seed)
    return [f"{rnd.choice(LEVELS)} [{rnd.choice(SERVICES)}] " + rnd.choice(MSGS).format(rnd.randint(1, 9999))
            for _ in range(n)]


class CharLines(Dataset):
    def __init__(self, lines, stoi, max_len=64):
        self.lines, self.stoi, self.max_len = lines, stoi, max_len

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, i):
        ids = [1] + [self.stoi[c] for c in self.lines[i]][: self.max_len - 2] + [2]
        ids = ids + [0] * (self.max_len - len(ids))
        ids = torch.tensor(ids)
        labels = ids.clone()
        labels[ids == 0] = -100
        return {"input_ids": ids, "labels": labels}


class CharGRULM(nn.Module):
    def __init__(self, vocab_size, dim=256):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.rnn = nn.GRU(dim, dim, num_layers=2, batch_first=True, dropout=0.1)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)
        self.lm_head.weight = self.embed.weight

    def forward(self, input_ids, labels=None):
        h, _ = self.rnn(self.embed(input_ids))
        logits = self.lm_head(h)
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1))
        return {"loss": loss, "logits": logits}


def main():
    lines = synth_lines(12000)
    chars = sorted({c for l in lines for c in l})
    stoi = {c: i + 3 for i, c in enumerate(chars)}  # 0 pad, 1 bos, 2 eos
    train_ds, eval_ds = CharLines(lines[:11000], stoi), CharLines(lines[11000:], stoi)
    model = CharGRULM(len(stoi) + 3)
    print(f"torch {torch.__version__} | transformers {transformers.__version__} | vocab {len(stoi) + 3} "
          f"| params {sum(p.numel() for p in model.parameters()):,}")

    args = TrainingArguments(
        output_dir="ckpt/char-gru-lm",
        per_device_train_batch_size=64,
        per_device_eval_batch_size=128,
        learning_rate=3e-3,
        lr_scheduler_type="cosine",
        warmup_steps=20,
        max_steps=150,
        logging_steps=10,
        eval_strategy="steps",
        eval_steps=50,
        save_steps=50,
        save_total_limit=2,
        report_to="none",
        disable_tqdm=True,
        seed=0,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
