import os
import resource

import numpy as np
import torch
from torch.utils.data import Dataset
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainerCallback, TrainingArguments

torch.manual_seed(0)
SEQ = 64
VOCAB = 50257   # same vocab as the GPT-2 tokenizer we use in prod


class SyntheticLMDataset(Dataset):
    """Token streams with a learnable next-token rule plus noise (stand-in for our pre-tokenised shards)."""

    def __init__(self, n, seed):
        g = np.random.default_rng(seed)
        start = g.integers(0, 2000, size=(n, 1))
        steps = np.arange(SEQ)[None, :]
        ids = (start * 31 + steps * 17) % 2000 + 100
        noise = g.random((n, SEQ)) < 0.1
        ids[noise] = g.integers(100, 2100, size=noise.sum())
        self.ids = torch.tensor(ids, dtype=torch.long)

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones(SEQ, dtype=torch.long), "labels": self.ids[i]}


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = logits[:, :-1].argmax(-1)
    tgt = labels[:, 1:]
    mask = tgt != -100
    return {"token_accuracy": float((preds[mask] == tgt[mask]).mean())}


class MemoryLogger(TrainerCallback):
    def on_log(self, args, state, control, logs=None, **kwargs):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"[mem] step {state.global_step} peak RSS {peak:.0f} MB")


cfg = GPT2Config(vocab_size=VOCAB, n_positions=SEQ, n_embd=64, n_layer=2, n_head=4)
model = GPT2LMHeadModel(cfg)

args = TrainingArguments(
    output_dir="/tmp/r18e_lm_run",
    max_steps=30,
    per_device_train_batch_size=8,
    per_device_eval_batch_size=16,
    learning_rate=2e-3,
    warmup_steps=10,
    logging_steps=10,
    eval_strategy="no",
    save_strategy="no",
    use_cpu=True,
    report_to="none",
    dataloader_num_workers=0,
    seed=0,
)

trainer = Trainer(model=model, args=args, train_dataset=SyntheticLMDataset(2000, 0),
                  eval_dataset=SyntheticLMDataset(600, 1), compute_metrics=compute_metrics,
                  callbacks=[MemoryLogger()])
trainer.train()
print("training done, running evaluation on 600 held-out sequences")
metrics = trainer.evaluate()
print(metrics)
