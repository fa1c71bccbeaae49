"""Intent classifier: tiny BERT trained with HF Trainer, metrics mirrored to a JSONL file
that a dashboard tails (also pushed by a background thread every 30 s)."""
import json
import os
import random
import threading
import time

import torch
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification, BertTokenizerFast,
                          Trainer, TrainerCallback, TrainingArguments)

INTENTS = ["billing", "shipping", "refund", "login"]
TEMPLATES = {
    "billing": ["why was i charged twice", "my invoice shows the wrong amount", "update my card"],
    "shipping": ["where is my parcel", "my package has not arrived", "track my delivery"],
    "refund": ["i want my money back", "how long does a refund take", "return this item"],
    "login": ["i cannot sign in", "reset my password", "my account is locked"],
}
WORK = "/tmp/intent-run"


def build_tokenizer():
    words = sorted({w for ts in TEMPLATES.values() for t in ts for w in t.split()})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + words
    os.makedirs(WORK, exist_ok=True)
    with open(f"{WORK}/vocab.txt", "w") as f:
        f.write("\n".join(vocab))
    return BertTokenizerFast.from_pretrained(WORK)


class IntentDataset(Dataset):
    def __init__(self, n, tok, seed):
        rng = random.Random(seed)
        self.rows = []
        for _ in range(n):
            label = rng.randrange(len(INTENTS))
            text = rng.choice(TEMPLATES[INTENTS[label]])
            enc = tok(text, padding="max_length", truncation=True, max_length=16)
            self.rows.append({**{k: torch.tensor(v) for k, v in enc.items()}, "labels": torch.tensor(label)})

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


class JsonlMetricsSink(TrainerCallback):
    """Buffers log events and appends them to metrics.jsonl; thread-safe because the
    background pusher flushes too."""

    def __init__(self, path, flush_every=4, push_interval=30.0):
        self.path = path
        self.flush_every = flush_every
        self._buf = []
        self._lock = threading.Lock()
        t = threading.Thread(target=self._pusher, args=(push_interval,), daemon=True)
        t.start()

    def _pusher(self, interval):
        while True:
            time.sleep(interval)
            self.flush()

    def flush(self):
        with self._lock:
            if not self._buf:
                return
            with open(self.path, "a") as f:
                for rec in self._buf:
                    f.write(json.dumps(rec) + "\n")
            self._buf.clear()

    def on_log(self, args, state, control, logs=None, **kwargs):
        with self._lock:
            self._buf.append({"step": state.global_step, **(logs or {})})
            if len(self._buf) >= self.flush_every:
                self.flush()

    def on_train_end(self, args, state, control, **kwargs):
        self.flush()


def main():
    torch.manual_seed(0)
    tok = build_tokenizer()
    train_ds = IntentDataset(3000, tok, seed=1)
    eval_ds = IntentDataset(400, tok, seed=2)
    cfg = BertConfig(vocab_size=tok.vocab_size, hidden_size=64, num_hidden_layers=2,
                     num_attention_heads=4, intermediate_size=128, max_position_embeddings=32,
                     num_labels=len(INTENTS))
    model = BertForSequenceClassification(cfg)

    args = TrainingArguments(
        output_dir=f"{WORK}/out",
        per_device_train_batch_size=32,
        num_train_epochs=2,
        learning_rate=1e-3,
        logging_steps=10,
        eval_strategy="epoch",
        save_strategy="no",
        report_to="none",
        use_cpu=True,
        disable_tqdm=True,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                      callbacks=[JsonlMetricsSink(f"{WORK}/metrics.jsonl")])
    print(f"training on {len(train_ds)} examples, {len(eval_ds)} for eval", flush=True)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
