import resource
# the batch scheduler kills jobs above 4 GiB of address space; mirror it here so we fail fast
resource.setrlimit(resource.RLIMIT_AS, (4 * 1024**3, 4 * 1024**3))

import numpy as np
import torch
from transformers import LlamaConfig, LlamaForCausalLM, Trainer, TrainingArguments, default_data_collator

torch.manual_seed(0)
VOCAB = 32000
SEQ_LEN = 256

# pre-tokenized shards (ids from our 32k sentencepiece vocab); synthetic stand-in here
rng = np.random.default_rng(0)
def make_split(n):
    # simple bigram-ish structure so there is something to learn
    start = rng.integers(0, VOCAB, size=(n, 1))
    steps = rng.integers(1, 50, size=(n, SEQ_LEN - 1))
    ids = (np.concatenate([start, steps], axis=1).cumsum(axis=1) % VOCAB).astype(np.int64)
    return ids

class Shard(torch.utils.data.Dataset):
    def __init__(self, ids):
        self.ids = torch.from_numpy(ids)
    def __len__(self):
        return len(self.ids)
    def __getitem__(self, i):
        x = self.ids[i]
        return {"input_ids": x, "attention_mask": torch.ones_like(x), "labels": x.clone()}

train_ds = Shard(make_split(512))
eval_ds = Shard(make_split(400))
print(f"train seqs={len(train_ds)} eval seqs={len(eval_ds)} seq_len={SEQ_LEN}")

config = LlamaConfig(vocab_size=VOCAB, hidden_size=64, intermediate_size=172, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=SEQ_LEN,
                     tie_word_embeddings=True)
model = LlamaForCausalLM(config)
print(f"params: {sum(p.numel() for p in model.parameters())/1e6:.2f}M")

def compute_metrics(eval_pred):
    logits, labels = eval_pred.predictions, eval_pred.label_ids
    preds = logits[:, :-1].argmax(-1)
    tgt = labels[:, 1:]
    mask = tgt != -100
    return {"token_acc": float((preds[mask] == tgt[mask]).mean())}

args = TrainingArguments(
    output_dir="./tiny-llama-cpt",
    per_device_train_batch_size=16,
    per_device_eval_batch_size=16,
    max_steps=12,
    learning_rate=3e-3,
    eval_strategy="steps",
    eval_steps=12,
    logging_steps=3,
    save_strategy="no",
    report_to=[],
    disable_tqdm=True,
    use_cpu=True,
)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  data_collator=default_data_collator, compute_metrics=compute_metrics)
trainer.train()
print(trainer.evaluate())
