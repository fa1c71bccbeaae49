"""Train a small GPT-2 language model on our API gateway logs (for anomaly scoring later)."""
import random
from collections import Counter

import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (DataCollatorForLanguageModeling, GPT2Config, GPT2LMHeadModel,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

random.seed(0)
torch.manual_seed(0)

N_LINES = 200_000
BLOCK = 64

METHODS = ["GET", "POST", "PUT", "DELETE"]
PATHS = ["/api/v2/orders", "/api/v2/users", "/api/v2/cart", "/api/v2/payments", "/healthz",
         "/api/v2/search", "/api/v2/inventory"]
STATUS = ["200", "200", "200", "201", "204", "400", "401", "404", "500", "503"]


def log_line(i):
    ts = f"2024-03-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:{(i * 7) % 60:02d}.{i % 1000:03d}Z"
    req = f"req-{random.getrandbits(40):010x}"
    user = f"uid={random.randint(1, 2_000_000)}"
    lat = f"{random.randint(1, 4000)}ms"
    return (f"{ts} gateway INFO {req} {random.choice(METHODS)} {random.choice(PATHS)} "
            f"{user} status={random.choice(STATUS)} latency={lat} bytes={random.randint(0, 99999)}")


print("generating log corpus ...", flush=True)
lines = [log_line(i) for i in range(N_LINES)]

print("building vocabulary ...", flush=True)
counts = Counter(w for line in lines for w in line.split())
vocab = {"[PAD]": 0, "[UNK]": 1, "[EOS]": 2}
for w in counts:
    vocab[w] = len(vocab)
tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                    eos_token="[EOS]")
print(f"vocab size: {len(tokenizer)}", flush=True)

print("tokenizing and packing into blocks ...", flush=True)
ids = []
for enc in tokenizer([l + " [EOS]" for l in lines])["input_ids"]:
    ids.extend(enc)
blocks = [ids[i:i + BLOCK] for i in range(0, len(ids) - BLOCK + 1, BLOCK)]
print(f"{len(ids):,} tokens -> {len(blocks):,} blocks of {BLOCK}", flush=True)


class Blocks(torch.utils.data.Dataset):
    def __init__(self, blocks):
        self.blocks = blocks

    def __len__(self):
        return len(self.blocks)

    def __getitem__(self, i):
        return {"input_ids": self.blocks[i]}


n_eval = 200
train_ds, eval_ds = Blocks(blocks[n_eval:]), Blocks(blocks[:n_eval])

config = GPT2Config(vocab_size=len(tokenizer), n_positions=BLOCK, n_embd=64, n_layer=2, n_head=4,
                    bos_token_id=tokenizer.eos_token_id, eos_token_id=tokenizer.eos_token_id,
                    pad_token_id=tokenizer.pad_token_id)
model = GPT2LMHeadModel(config)
print(f"model parameters: {model.num_parameters():,}", flush=True)

args = TrainingArguments(
    output_dir="gateway-lm",
    per_device_train_batch_size=16,
    per_device_eval_batch_size=16,
    max_steps=30,
    learning_rate=1e-3,
    logging_steps=10,
    eval_strategy="no",
    save_strategy="no",
    report_to=[],
    use_cpu=True,
    dataloader_num_workers=0,
)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False))
trainer.train()
print(trainer.evaluate())
