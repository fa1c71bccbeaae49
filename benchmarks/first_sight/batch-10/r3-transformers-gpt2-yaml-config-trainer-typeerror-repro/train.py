"""Pre-train a tiny GPT-2 on our product-description corpus.
Hyper-parameters live in a YAML file (--config); the defaults below are the
team's baseline config."""
import argparse
import random

import torch
import yaml
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import (DataCollatorForLanguageModeling, GPT2Config, GPT2LMHeadModel,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

DEFAULT_CONFIG = """
model:
  n_embd: 64
  n_layer: 2
  n_head: 2
  n_positions: 64
data:
  n_docs: 800
  block_size: 48
training:
  output_dir: out/tiny-gpt2
  num_train_epochs: 2
  per_device_train_batch_size: 16
  learning_rate: 3e-4
  weight_decay: 0.01
  warmup_steps: 10
  lr_scheduler_type: cosine
  logging_steps: 10
  save_strategy: "no"
  report_to: []
  use_cpu: true
  disable_tqdm: true
"""

parser = argparse.ArgumentParser()
parser.add_argument("--config", default=None)
cli = parser.parse_args()
cfg = yaml.safe_load(open(cli.config) if cli.config else DEFAULT_CONFIG)
print("config:", cfg)
set_seed(0)
random.seed(0)

# ------------------------------------------------------------------ corpus
ADJ = "soft durable lightweight waterproof compact stylish premium classic modern cozy".split()
NOUN = "jacket backpack lamp kettle chair blanket bottle speaker notebook umbrella".split()
FEAT = ("with a zip pocket|made from recycled cotton|in three colours|that folds flat|"
        "with a two year warranty|for everyday use|with a matte finish").split("|")
docs = [f"this {random.choice(ADJ)} {random.choice(NOUN)} comes {random.choice(FEAT)} "
        f"and is {random.choice(ADJ)} ." for _ in range(cfg["data"]["n_docs"])]

raw_tok = Tokenizer(models.BPE(unk_token="<unk>"))
raw_tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
raw_tok.decoder = decoders.ByteLevel()
raw_tok.train_from_iterator(docs, trainers.BpeTrainer(vocab_size=300,
                                                      special_tokens=["<|endoftext|>", "<pad>", "<unk>"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=raw_tok, eos_token="<|endoftext|>",
                                    bos_token="<|endoftext|>", pad_token="<pad>", unk_token="<unk>")


class DocDataset(torch.utils.data.Dataset):
    def __init__(self, docs, block_size):
        self.enc = tokenizer([d + tokenizer.eos_token for d in docs], truncation=True,
                             max_length=block_size)["input_ids"]

    def __len__(self):
        return len(self.enc)

    def __getitem__(self, i):
        return {"input_ids": self.enc[i]}


train_ds = DocDataset(docs, cfg["data"]["block_size"])
print(f"{len(train_ds)} docs, vocab {len(tokenizer)}")

model = GPT2LMHeadModel(GPT2Config(vocab_size=len(tokenizer), bos_token_id=tokenizer.bos_token_id,
                                   eos_token_id=tokenizer.eos_token_id,
                                   pad_token_id=tokenizer.pad_token_id, **cfg["model"]))
print(f"params: {sum(p.numel() for p in model.parameters()) / 1e3:.1f}k")

args = TrainingArguments(**cfg["training"])
trainer = Trainer(model=model, args=args, train_dataset=train_ds,
                  data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False))
trainer.train()
prompt = tokenizer("this soft", return_tensors="pt")
out = model.generate(**prompt, max_new_tokens=15, do_sample=False)
print(tokenizer.decode(out[0]))
