"""Continue-pretraining a small causal LM on pre-tokenized shards with HF Trainer and
report eval loss + next-token accuracy."""
import numpy as np
import torch
from transformers import (GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments,
                          set_seed)

set_seed(0)
torch.set_num_threads(1)

VOCAB, SEQ = 32000, 128
N_TRAIN, N_EVAL = 256, 1024


class TokenShard(torch.utils.data.Dataset):
    """Stand-in for our pre-tokenized .bin shards: Zipf-ish token stream with local repetition."""

    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        base = rng.zipf(1.3, size=(n, SEQ)) % VOCAB
        rep = rng.random((n, SEQ)) < 0.3
        base[:, 1:][rep[:, 1:]] = base[:, :-1][rep[:, 1:]]
        self.data = torch.from_numpy(base.astype(np.int64))

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        ids = self.data[i]
        return {"input_ids": ids, "attention_mask": torch.ones_like(ids), "labels": ids.clone()}


def compute_metrics(eval_pred):
    logits, labels = eval_pred.predictions, eval_pred.label_ids
    if isinstance(logits, tuple):
        logits = logits[0]
    preds = logits[:, :-1].argmax(-1)
    tgt = labels[:, 1:]
    mask = tgt != -100
    return {"token_acc": float((preds[mask] == tgt[mask]).mean())}


config = GPT2Config(vocab_size=VOCAB, n_positions=SEQ, n_embd=64, n_layer=2, n_head=4)
model = GPT2LMHeadModel(config)
print(f"params: {model.num_parameters()/1e6:.2f}M")

args = TrainingArguments(
    output_dir="runs/gpt2-small-cpt",
    per_device_train_batch_size=16,
    per_device_eval_batch_size=16,
    num_train_epochs=1,
    learning_rate=1e-3,
    warmup_steps=2,
    logging_steps=4,
    save_strategy="no",
    eval_strategy="no",
    report_to="none",
    use_cpu=True,
    dataloader_num_workers=0,
)

trainer = Trainer(
    model=model,
    args=args,
    train_dataset=TokenShard(N_TRAIN, 1),
    eval_dataset=TokenShard(N_EVAL, 2),
    compute_metrics=compute_metrics,
)
trainer.train()
metrics = trainer.evaluate()
print(metrics)
