"""Continue-pretraining a small Llama-style model on domain text (synthetic stand-in here).

The real run uses a 7B checkpoint on a single box; this script is the small-scale dry run
of the same code path on CPU.
"""
import math
import random

import torch
from torch.utils.data import Dataset
from transformers import (
    AutoModelForCausalLM,
    LlamaConfig,
    Trainer,
    TrainingArguments,
    set_seed,
)

set_seed(0)
VOCAB, SEQ = 1000, 64


class MarkovText(Dataset):
    """Token streams from a fixed random bigram chain: learnable, loss should fall well below ln(V)."""

    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(1234)
        self.next_tok = torch.randint(4, VOCAB, (VOCAB, 4), generator=g)
        rng = random.Random(seed)
        self.rows = []
        for _ in range(n):
            t = rng.randrange(4, VOCAB)
            seq = [t]
            for _ in range(SEQ - 1):
                t = int(self.next_tok[t, rng.randrange(4)])
                seq.append(t)
            self.rows.append(torch.tensor(seq))

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        ids = self.rows[i]
        return {"input_ids": ids, "labels": ids.clone()}


config = LlamaConfig(vocab_size=VOCAB, hidden_size=128, intermediate_size=344, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=SEQ)
model = AutoModelForCausalLM.from_config(config, dtype=torch.float16)
print(f"model dtype={model.dtype} params={model.num_parameters()/1e6:.2f}M  "
      f"(ln V = {math.log(VOCAB):.2f})")

args = TrainingArguments(
    output_dir="checkpoints",
    per_device_train_batch_size=32,
    per_device_eval_batch_size=64,
    num_train_epochs=1,
    learning_rate=1e-3,
    lr_scheduler_type="cosine",
    warmup_steps=20,
    logging_steps=5,
    eval_strategy="steps",
    eval_steps=20,
    save_strategy="no",
    report_to="none",
    use_cpu=True,
    disable_tqdm=True,
)
trainer = Trainer(model=model, args=args,
                  train_dataset=MarkovText(2400, seed=1), eval_dataset=MarkovText(300, seed=2))
trainer.train()
metrics = trainer.evaluate()
print(f"final eval loss {metrics['eval_loss']:.4f}")
