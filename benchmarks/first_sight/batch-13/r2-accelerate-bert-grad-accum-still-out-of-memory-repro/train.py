"""Fine-tune a small BERT on support-ticket priority (4 classes) with accelerate.

The reference recipe uses batch 256; the box only fits a batch of 16, so we use
gradient accumulation: 16 micro-batches of 16 = effective batch 256.
"""
import time

import numpy as np
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset
from transformers import BertConfig, BertForSequenceClassification, get_linear_schedule_with_warmup

MAX_LEN = 256
MICRO_BATCH = 16
ACCUM_STEPS = 16
EPOCHS = 1
LR = 5e-5
VOCAB = 8000
N_CLASSES = 4


class TicketDataset(Dataset):
    """Pre-tokenized tickets (ids exported by the tokenization job)."""

    def __init__(self, n, seed=0):
        rng = np.random.default_rng(seed)
        self.labels = rng.integers(0, N_CLASSES, size=n)
        self.ids = rng.integers(1000, VOCAB, size=(n, MAX_LEN))
        # priority keywords
        for i, y in enumerate(self.labels):
            pos = rng.choice(MAX_LEN - 2, size=6, replace=False) + 1
            self.ids[i, pos] = 100 + y
        self.ids[:, 0] = 2   # [CLS]
        self.ids[:, -1] = 3  # [SEP]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {
            "input_ids": torch.tensor(self.ids[i]),
            "attention_mask": torch.ones(MAX_LEN, dtype=torch.long),
            "labels": torch.tensor(self.labels[i]),
        }


def main():
    accelerator = Accelerator()
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=VOCAB, hidden_size=256, num_hidden_layers=4, num_attention_heads=4,
                     intermediate_size=1024, max_position_embeddings=MAX_LEN, num_labels=N_CLASSES)
    model = BertForSequenceClassification(cfg)
    train_ds = TicketDataset(4096)
    loader = DataLoader(train_ds, batch_size=MICRO_BATCH, shuffle=True, drop_last=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
    total_updates = EPOCHS * len(loader) // ACCUM_STEPS
    scheduler = get_linear_schedule_with_warmup(optimizer, total_updates // 10, total_updates)
    model, optimizer, loader, scheduler = accelerator.prepare(model, optimizer, loader, scheduler)

    accelerator.print(f"torch {torch.__version__}, accelerate on {accelerator.device}, "
                      f"params {sum(p.numel() for p in model.parameters())/1e6:.1f}M")
    accelerator.print(f"micro-batch {MICRO_BATCH} x accumulation {ACCUM_STEPS} = "
                      f"effective batch {MICRO_BATCH * ACCUM_STEPS}, {total_updates} updates")

    model.train()
    update, t0 = 0, time.time()
    accum_loss = 0.0
    for epoch in range(EPOCHS):
        for step, batch in enumerate(loader):
            out = model(**batch)
            accum_loss = accum_loss + out.loss / ACCUM_STEPS
            if (step + 1) % ACCUM_STEPS == 0:
                accelerator.backward(accum_loss)
                accelerator.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
                update += 1
                accelerator.print(f"epoch {epoch} update {update}/{total_updates} "
                                  f"loss {accum_loss.item():.4f} ({time.time() - t0:.1f}s)")
                accum_loss = 0.0
    accelerator.save_model(model, "ticket-priority-bert")


if __name__ == "__main__":
    main()
