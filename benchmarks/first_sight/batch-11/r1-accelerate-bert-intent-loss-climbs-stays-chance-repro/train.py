"""Fine-tune a small BERT-style encoder on support-ticket intent ids with Accelerate.

Hyper-parameter recipe adapted from our large-scale pretraining script
(base lr + batch-size scaling, AdamW, cosine schedule with warmup).
"""
import argparse
import math

import torch
from torch.utils.data import Dataset, DataLoader
from accelerate import Accelerator
from accelerate.utils import set_seed
from transformers import BertConfig, BertForSequenceClassification, get_cosine_schedule_with_warmup

VOCAB = 2000
SEQ = 32
N_CLASSES = 6


class TicketDataset(Dataset):
    """Synthetic tickets: each intent has a handful of indicative token ids mixed into noise."""

    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, N_CLASSES, (n,), generator=g)
        ids = torch.randint(100, VOCAB, (n, SEQ), generator=g)
        keywords = torch.arange(10, 10 + N_CLASSES * 8).view(N_CLASSES, 8)
        for i in range(n):
            pos = torch.randperm(SEQ - 1, generator=g)[:6] + 1
            ids[i, pos] = keywords[self.labels[i], torch.randint(0, 8, (6,), generator=g)]
        ids[:, 0] = 2  # [CLS]
        self.ids = ids

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones(SEQ, dtype=torch.long),
                "labels": self.labels[i]}


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--batch_size", type=int, default=64, help="per-device batch size")
    p.add_argument("--accum_iter", type=int, default=2)
    p.add_argument("--blr", type=float, default=1.5e-3,
                   help="base learning rate, scaled with the total batch size")
    p.add_argument("--weight_decay", type=float, default=0.05)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--warmup_epochs", type=int, default=1)
    return p.parse_args()


def main():
    args = parse_args()
    set_seed(0)
    accelerator = Accelerator(gradient_accumulation_steps=args.accum_iter)

    eff_batch_size = args.batch_size * args.accum_iter * accelerator.num_processes
    lr = args.blr * eff_batch_size
    accelerator.print(f"effective batch size: {eff_batch_size}")

    config = BertConfig(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=128, max_position_embeddings=64, num_labels=N_CLASSES)
    model = BertForSequenceClassification(config)

    train_dl = DataLoader(TicketDataset(3072, seed=1), batch_size=args.batch_size, shuffle=True)
    val_dl = DataLoader(TicketDataset(512, seed=2), batch_size=256)

    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=args.weight_decay, betas=(0.9, 0.95))
    steps_per_epoch = math.ceil(len(train_dl) / args.accum_iter)
    scheduler = get_cosine_schedule_with_warmup(optimizer, args.warmup_epochs * steps_per_epoch,
                                                args.epochs * steps_per_epoch)
    model, optimizer, train_dl, val_dl, scheduler = accelerator.prepare(model, optimizer, train_dl, val_dl, scheduler)

    step = 0
    for epoch in range(args.epochs):
        model.train()
        for batch in train_dl:
            with accelerator.accumulate(model):
                out = model(**batch)
                accelerator.backward(out.loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
            step += 1
            if step % 12 == 0:
                accelerator.print(f"epoch {epoch} step {step:4d} loss {out.loss.item():.4f}")

        model.eval()
        correct, total, vloss = 0, 0, 0.0
        with torch.no_grad():
            for batch in val_dl:
                out = model(**batch)
                preds, labels = accelerator.gather_for_metrics((out.logits.argmax(-1), batch["labels"]))
                correct += (preds == labels).sum().item()
                total += labels.numel()
                vloss += out.loss.item() * labels.numel()
        accelerator.print(f"epoch {epoch} | val loss {vloss / total:.4f} | val acc {correct / total:.4f}")


if __name__ == "__main__":
    main()
