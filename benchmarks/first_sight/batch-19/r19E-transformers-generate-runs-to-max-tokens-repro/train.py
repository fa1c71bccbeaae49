"""Train a tiny GPT-2 from scratch on short counting sequences, then sample.

Each training example is a run of 6 consecutive integers followed by the end-of-text
token, so after training the model should continue a 2-number prompt with 4 numbers
and stop.
"""
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (
    DataCollatorForLanguageModeling,
    GPT2Config,
    GPT2LMHeadModel,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
    set_seed,
)

set_seed(0)
random.seed(0)

MAX_START = 60
SEQ_LEN = 6

# ---------------- tokenizer ----------------
vocab = {"[UNK]": 0, "<|endoftext|>": 1}
for i in range(MAX_START + SEQ_LEN + 40):
    vocab[str(i)] = len(vocab)
core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tokenizer = PreTrainedTokenizerFast(
    tokenizer_object=core, unk_token="[UNK]", eos_token="<|endoftext|>"
)
tokenizer.pad_token = tokenizer.eos_token  # GPT-2 has no pad token


# ---------------- data ----------------
def make_example():
    start = random.randint(0, MAX_START)
    text = " ".join(str(start + k) for k in range(SEQ_LEN))
    return text + " " + tokenizer.eos_token


class CountingDataset(torch.utils.data.Dataset):
    def __init__(self, n):
        texts = [make_example() for _ in range(n)]
        self.enc = [tokenizer(t) for t in texts]

    def __len__(self):
        return len(self.enc)

    def __getitem__(self, i):
        return {"input_ids": self.enc[i]["input_ids"]}


train_ds = CountingDataset(2000)
eval_ds = CountingDataset(200)
print("example:", tokenizer.convert_ids_to_tokens(train_ds[0]["input_ids"]))

# ---------------- model ----------------
config = GPT2Config(
    vocab_size=len(tokenizer),
    n_positions=64,
    n_embd=128,
    n_layer=2,
    n_head=4,
    bos_token_id=tokenizer.eos_token_id,
    eos_token_id=tokenizer.eos_token_id,
    pad_token_id=tokenizer.pad_token_id,
)
model = GPT2LMHeadModel(config)
print(f"params: {sum(p.numel() for p in model.parameters())/1e6:.2f}M")

collator = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm=False)

args = TrainingArguments(
    output_dir="gpt2-counting",
    per_device_train_batch_size=32,
    per_device_eval_batch_size=64,
    num_train_epochs=4,
    learning_rate=3e-3,
    warmup_steps=50,
    weight_decay=0.01,
    logging_steps=25,
    eval_strategy="epoch",
    save_strategy="no",
    report_to="none",
    use_cpu=True,
    seed=0,
    disable_tqdm=True,
)
trainer = Trainer(
    model=model,
    args=args,
    train_dataset=train_ds,
    eval_dataset=eval_ds,
    data_collator=collator,
    processing_class=tokenizer,
)
trainer.train()
print("final eval:", trainer.evaluate())

# ---------------- sample ----------------
model.eval()
prompts = [f"{s} {s+1}" for s in (3, 10, 17, 25, 31, 42, 50, 58)]
stopped = 0
for p in prompts:
    ids = tokenizer(p, return_tensors="pt")
    out = model.generate(
        **ids, max_new_tokens=20, do_sample=False, pad_token_id=tokenizer.pad_token_id
    )
    new = out[0, ids["input_ids"].shape[1]:]
    hit_eos = (new == tokenizer.eos_token_id).any().item()
    stopped += int(hit_eos)
    print(f"prompt={p!r:10} new_tokens={len(new):2d} eos={hit_eos} -> {tokenizer.decode(new)}")
print(f"generations that stopped on EOS: {stopped}/{len(prompts)}")
