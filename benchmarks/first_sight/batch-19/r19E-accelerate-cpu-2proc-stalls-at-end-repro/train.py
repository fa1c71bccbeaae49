"""Token-budgeted LM pretraining with accelerate; 2 CPU processes to test the DDP path locally
before sending the job to the cluster."""
import random
import time
from datetime import timedelta

import torch
from torch.utils.data import DataLoader, Dataset
from accelerate import Accelerator, notebook_launcher
from accelerate.utils import InitProcessGroupKwargs, set_seed
from transformers import LlamaConfig, LlamaForCausalLM

VOCAB = 512
TOKEN_BUDGET = 120_000          # total tokens to train on, across all processes
MAX_LEN = 96


class RandomLengthDocs(Dataset):
    """Synthetic documents with a repeating motif so the loss actually goes down."""

    def __init__(self, n, seed=0):
        rng = random.Random(seed)
        self.docs = []
        for _ in range(n):
            motif = [rng.randrange(4, VOCAB) for _ in range(rng.randint(3, 8))]
            length = rng.randint(12, MAX_LEN)
            self.docs.append((motif * (length // len(motif) + 1))[:length])

    def __len__(self):
        return len(self.docs)

    def __getitem__(self, i):
        return self.docs[i]


def collate(docs):
    L = max(len(d) for d in docs)
    ids = torch.zeros(len(docs), L, dtype=torch.long)
    mask = torch.zeros(len(docs), L, dtype=torch.long)
    for i, d in enumerate(docs):
        ids[i, : len(d)] = torch.tensor(d)
        mask[i, : len(d)] = 1
    labels = ids.masked_fill(mask == 0, -100)
    return {"input_ids": ids, "attention_mask": mask, "labels": labels}


def main():
    pg = InitProcessGroupKwargs(timeout=timedelta(seconds=90))   # fail fast in CI instead of the 30 min default
    accelerator = Accelerator(cpu=True, kwargs_handlers=[pg])
    set_seed(0)
    cfg = LlamaConfig(vocab_size=VOCAB, hidden_size=64, intermediate_size=172, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=MAX_LEN)
    model = LlamaForCausalLM(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    loader = DataLoader(RandomLengthDocs(4000), batch_size=16, shuffle=True, collate_fn=collate)
    model, opt, loader = accelerator.prepare(model, opt, loader)

    budget_per_proc = TOKEN_BUDGET // accelerator.num_processes
    tokens_seen, step, t0 = 0, 0, time.time()
    model.train()
    for batch in loader:
        out = model(**batch)
        accelerator.backward(out.loss)
        opt.step()
        opt.zero_grad()
        tokens_seen += int(batch["attention_mask"].sum())
        step += 1
        if step % 20 == 0:
            accelerator.print(f"step {step:3d} loss {out.loss.item():.3f} tokens(rank0) {tokens_seen} "
                              f"{time.time()-t0:.1f}s")
        if tokens_seen >= budget_per_proc:
            break

    print(f"[rank {accelerator.process_index}] reached token budget at step {step} "
          f"({tokens_seen} tokens), waiting for the other ranks", flush=True)
    accelerator.wait_for_everyone()
    if accelerator.is_main_process:
        accelerator.unwrap_model(model).save_pretrained("llama-tiny-budget")
        print(f"saved after {time.time()-t0:.1f}s")


if __name__ == "__main__":
    notebook_launcher(main, num_processes=2)
