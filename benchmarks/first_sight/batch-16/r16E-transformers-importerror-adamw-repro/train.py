import random

import torch
from torch.utils.data import DataLoader
from transformers import (AdamW, GPT2Config, GPT2LMHeadModel, get_linear_schedule_with_warmup,
                          set_seed)

SEQ_LEN = 64
BATCH_SIZE = 16
EPOCHS = 2
LR = 5e-4


def build_corpus(n_seqs, vocab_size, seed=0):
    rng = random.Random(seed)
    seqs = []
    for _ in range(n_seqs):
        start = rng.randrange(vocab_size)
        step = rng.choice([1, 2, 3])
        seqs.append(torch.tensor([(start + i * step) % vocab_size for i in range(SEQ_LEN)]))
    return seqs


def main():
    set_seed(0)
    config = GPT2Config(vocab_size=512, n_positions=SEQ_LEN, n_embd=128, n_layer=2, n_head=4)
    model = GPT2LMHeadModel(config)
    data = build_corpus(3000, config.vocab_size)
    loader = DataLoader(data, batch_size=BATCH_SIZE, shuffle=True)

    optimizer = AdamW(model.parameters(), lr=LR, weight_decay=0.01)
    total_steps = len(loader) * EPOCHS
    scheduler = get_linear_schedule_with_warmup(optimizer, int(0.05 * total_steps), total_steps)

    model.train()
    step = 0
    for epoch in range(EPOCHS):
        for batch in loader:
            out = model(input_ids=batch, labels=batch)
            out.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            step += 1
            if step % 50 == 0:
                print(f"epoch {epoch} step {step}/{total_steps} loss {out.loss.item():.4f}", flush=True)
    model.save_pretrained("out/tiny-gpt2")


if __name__ == "__main__":
    main()
