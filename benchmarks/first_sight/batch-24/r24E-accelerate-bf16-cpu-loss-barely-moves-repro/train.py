"""bf16 training of a small GPT-2 on CPU with Accelerate (synthetic arithmetic-progression language)."""
import time

import torch
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, IterableDataset
from transformers import AutoModelForCausalLM, GPT2Config, get_constant_schedule_with_warmup

VOCAB, SEQ, BATCH, STEPS, LR = 256, 32, 32, 400, 2e-5


class Progressions(IterableDataset):
    """Sequences x_t = (a + k*t) mod VOCAB with random start a and stride k in 1..4."""

    def __iter__(self):
        while True:
            a = torch.randint(0, VOCAB, (1,))
            k = torch.randint(1, 5, (1,))
            yield (a + k * torch.arange(SEQ)) % VOCAB


def main():
    accelerator = Accelerator(cpu=True, mixed_precision="bf16")
    set_seed(0)
    config = GPT2Config(vocab_size=VOCAB, n_positions=SEQ, n_embd=128, n_layer=2, n_head=4,
                        bos_token_id=0, eos_token_id=0)
    model = AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
    accelerator.print(f"model dtype {model.dtype}, params {model.num_parameters() / 1e6:.2f}M, "
                      f"mixed_precision={accelerator.mixed_precision}")

    optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
    scheduler = get_constant_schedule_with_warmup(optimizer, num_warmup_steps=20)
    loader = DataLoader(Progressions(), batch_size=BATCH)
    model, optimizer, loader, scheduler = accelerator.prepare(model, optimizer, loader, scheduler)

    torch.manual_seed(123)
    val = torch.stack([next(iter(Progressions())) for _ in range(128)])

    model.train()
    t0 = time.time()
    for step, batch in enumerate(loader, start=1):
        with accelerator.autocast():
            loss = model(input_ids=batch, labels=batch).loss
        accelerator.backward(loss)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        if step % 50 == 0:
            model.eval()
            with torch.no_grad(), accelerator.autocast():
                val_loss = model(input_ids=val, labels=val).loss.item()
            model.train()
            tps = step * BATCH * SEQ / (time.time() - t0)
            accelerator.print(f"step {step:4d} loss {loss.item():.4f} val_loss {val_loss:.4f} "
                              f"lr {scheduler.get_last_lr()[0]:.1e} tok/s {tps:,.0f}")
        if step >= STEPS:
            break


if __name__ == "__main__":
    main()
