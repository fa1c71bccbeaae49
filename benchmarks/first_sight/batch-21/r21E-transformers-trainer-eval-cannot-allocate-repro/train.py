"""Continued pretraining of a small GPT-2 on pre-tokenized shards, with token-accuracy eval via the HF Trainer."""
import numpy as np
import torch
from torch.utils.data import Dataset
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments, set_seed

set_seed(0)
VOCAB = 32000      # same vocab as our production sentencepiece model
SEQ_LEN = 256


def make_shard(n_seqs, seed):
    """Stand-in for the real memmapped shards: token ids with a learnable local structure."""
    rng = np.random.default_rng(seed)
    base = rng.zipf(1.3, size=(n_seqs, SEQ_LEN)) % VOCAB
    out = base.copy()
    out[:, 1::2] = (base[:, 0::2] * 7 + 3) % VOCAB  # every odd token is a function of the previous one
    return out.astype(np.int64)


class TokenShard(Dataset):
    def __init__(self, arr):
        self.arr = arr

    def __len__(self):
        return len(self.arr)

    def __getitem__(self, i):
        ids = torch.from_numpy(self.arr[i])
        return {"input_ids": ids, "attention_mask": torch.ones_like(ids), "labels": ids.clone()}


train_ds = TokenShard(make_shard(640, seed=1))
eval_ds = TokenShard(make_shard(512, seed=2))

config = GPT2Config(vocab_size=VOCAB, n_positions=SEQ_LEN, n_embd=64, n_layer=2, n_head=4)
model = GPT2LMHeadModel(config)
print(f"params: {sum(p.numel() for p in model.parameters()) / 1e6:.1f}M, "
      f"train seqs {len(train_ds)}, eval seqs {len(eval_ds)}, seq_len {SEQ_LEN}")


def compute_metrics(eval_pred):
    logits, labels = eval_pred.predictions, eval_pred.label_ids
    preds = logits[:, :-1].argmax(-1)
    labels = labels[:, 1:]
    mask = labels != -100
    return {"token_accuracy": float((preds[mask] == labels[mask]).mean())}


args = TrainingArguments(
    output_dir="out_ctp",
    per_device_train_batch_size=8,
    per_device_eval_batch_size=8,
    max_steps=80,
    learning_rate=3e-3,
    warmup_steps=10,
    lr_scheduler_type="cosine",
    logging_steps=10,
    eval_strategy="steps",
    eval_steps=40,
    save_strategy="no",
    report_to=[],
    use_cpu=True,
    disable_tqdm=True,
)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  compute_metrics=compute_metrics)
trainer.train()
print(trainer.evaluate())
