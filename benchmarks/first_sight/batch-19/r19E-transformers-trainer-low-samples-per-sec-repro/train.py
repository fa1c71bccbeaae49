"""Intent classifier for short chat messages: small BERT + HF Trainer on CPU.

Preprocessing follows the usual `dataset.map(preprocess, batched=True)` pattern, done
here over plain column dicts so the box doesn't need the datasets package.
"""
import random
import time

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (
    BertConfig,
    BertForSequenceClassification,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
    default_data_collator,
    set_seed,
)

set_seed(0)
rng = random.Random(0)

INTENTS = {
    "billing": ["invoice", "charged", "refund", "payment", "card", "bill"],
    "login": ["password", "login", "locked", "2fa", "reset", "account"],
    "shipping": ["package", "delivery", "tracking", "courier", "arrived", "late"],
    "cancel": ["cancel", "subscription", "stop", "terminate", "plan", "close"],
}
LABELS = sorted(INTENTS)
COMMON = ["hi", "my", "the", "is", "not", "why", "can", "you", "help", "please", "with", "a", "i", "need", "today"]


def make_row():
    lab = rng.randrange(len(LABELS))
    words = [rng.choice(COMMON) for _ in range(rng.randint(5, 18))]
    for _ in range(rng.randint(1, 3)):
        words.insert(rng.randrange(len(words)), rng.choice(INTENTS[LABELS[lab]]))
    return " ".join(words), lab


def columns(n):
    rows = [make_row() for _ in range(n)]
    return {"text": [r[0] for r in rows], "label": [r[1] for r in rows]}


raw_train, raw_eval = columns(8000), columns(256)

wp = Tokenizer(models.WordPiece(unk_token="[UNK]"))
wp.normalizer = normalizers.BertNormalizer(lowercase=True)
wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
wp.train_from_iterator(raw_train["text"], trainers.WordPieceTrainer(
    vocab_size=400, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
wp.post_processor = processors.TemplateProcessing(
    single="[CLS] $A [SEP]", special_tokens=[("[CLS]", wp.token_to_id("[CLS]")), ("[SEP]", wp.token_to_id("[SEP]"))])
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wp, unk_token="[UNK]", pad_token="[PAD]",
                                    cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]",
                                    model_max_length=512)


def preprocess(batch):
    enc = tokenizer(batch["text"], padding="max_length", truncation=True)
    enc["labels"] = batch["label"]
    return enc


class Columns(torch.utils.data.Dataset):
    def __init__(self, cols):
        self.cols = cols
        self.n = len(next(iter(cols.values())))

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {k: v[i] for k, v in self.cols.items()}


t0 = time.time()
train_ds = Columns(dict(preprocess(raw_train)))
eval_ds = Columns(dict(preprocess(raw_eval)))
print(f"tokenized {len(train_ds)} train / {len(eval_ds)} eval in {time.time()-t0:.1f}s; "
      f"mean words per message {np.mean([len(t.split()) for t in raw_train['text']]):.1f}")

config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=256, max_position_embeddings=512, num_labels=len(LABELS))
model = BertForSequenceClassification(config)


def compute_metrics(p):
    return {"accuracy": float((p.predictions.argmax(-1) == p.label_ids).mean())}


args = TrainingArguments(
    output_dir="checkpoints",
    per_device_train_batch_size=16,
    per_device_eval_batch_size=64,
    max_steps=12,
    learning_rate=5e-4,
    warmup_steps=2,
    logging_steps=4,
    eval_strategy="no",
    save_strategy="no",
    report_to="none",
    use_cpu=True,
    disable_tqdm=True,
)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  data_collator=default_data_collator, compute_metrics=compute_metrics)
print("torch threads:", torch.get_num_threads())
out = trainer.train()
m = out.metrics
print(f"smoke run: {m['train_samples_per_second']:.1f} samples/s, {m['train_runtime']:.1f}s for 12 steps")
print(f"projected time for 10 epochs: {10 * len(train_ds) / m['train_samples_per_second'] / 60:.1f} min")
print(trainer.evaluate())
