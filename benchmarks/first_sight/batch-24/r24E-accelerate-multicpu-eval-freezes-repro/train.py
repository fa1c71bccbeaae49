"""Data-parallel training of a small text classifier with Accelerate on 2 CPU processes (gloo)."""
import datetime
import os
import time

import torch
import torch.multiprocessing as mp
from accelerate import Accelerator
from accelerate.utils import InitProcessGroupKwargs, set_seed
from torch.utils.data import DataLoader, TensorDataset
from transformers import BertConfig, BertForSequenceClassification

WORLD_SIZE = 2
VOCAB, SEQ = 500, 32


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(5, VOCAB, (n, SEQ), generator=g)
    labels = (ids[:, :4].float().mean(1) > VOCAB / 2).long()  # label depends on the first tokens
    return TensorDataset(ids, torch.ones_like(ids), labels)


def evaluate(accelerator, model, loader):
    model.eval()
    correct = total = 0
    for ids, mask, y in loader:
        with torch.no_grad():
            logits = model(input_ids=ids, attention_mask=mask).logits
        preds, refs = accelerator.gather_for_metrics((logits.argmax(-1), y))
        correct += (preds == refs).sum().item()
        total += refs.numel()
    model.train()
    return correct / total


def worker(rank, world_size):
    os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(world_size),
                      MASTER_ADDR="127.0.0.1", MASTER_PORT="29517")
    pg_kwargs = InitProcessGroupKwargs(backend="gloo", timeout=datetime.timedelta(seconds=60))
    accelerator = Accelerator(cpu=True, kwargs_handlers=[pg_kwargs])
    set_seed(0)
    accelerator.print(f"distributed={accelerator.distributed_type} processes={accelerator.num_processes}")

    model = BertForSequenceClassification(BertConfig(
        vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=128, max_position_embeddings=SEQ, num_labels=2))
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    train_dl = DataLoader(make_data(2048, 1), batch_size=32, shuffle=True)
    eval_dl = DataLoader(make_data(512, 2), batch_size=64)
    model, opt, train_dl, eval_dl = accelerator.prepare(model, opt, train_dl, eval_dl)

    for epoch in range(3):
        t0 = time.time()
        for step, (ids, mask, y) in enumerate(train_dl):
            loss = model(input_ids=ids, attention_mask=mask, labels=y).loss
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()
        accelerator.print(f"epoch {epoch} last loss {loss.item():.4f} ({time.time() - t0:.1f}s)")

        if accelerator.is_main_process:
            acc = evaluate(accelerator, model, eval_dl)
            print(f"epoch {epoch} eval accuracy {acc:.3f}", flush=True)
        accelerator.wait_for_everyone()

    accelerator.print("training finished")
    accelerator.end_training()


if __name__ == "__main__":
    mp.spawn(worker, args=(WORLD_SIZE,), nprocs=WORLD_SIZE, join=True)
