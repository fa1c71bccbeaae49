"""Fine-tune a small causal LM on "from A to B : A ... B" counting prompts, then sample.

Tokenizer is trained from scratch with HF tokenizers; model is a tiny GPT-2 built from config.
"""
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, processors
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

MAXN = 40


def make_example():
    a = random.randint(0, MAXN - 10)
    b = a + random.randint(1, 9)
    body = " ".join(str(i) for i in range(a, b + 1))
    return f"from {a} to {b} : {body}"


texts = [make_example() for _ in range(6000)]

# ---- tokenizer -----------------------------------------------------------
vocab = {"<unk>": 0, "</s>": 1, "from": 2, "to": 3, ":": 4}
for i in range(MAXN + 1):
    vocab[str(i)] = len(vocab)
tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tok.post_processor = processors.TemplateProcessing(
    single="$A </s>", special_tokens=[("</s>", vocab["</s>"])]
)
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", eos_token="</s>")
tokenizer.pad_token = tokenizer.eos_token


class CountingDataset(torch.utils.data.Dataset):
    def __init__(self, texts):
        self.enc = [tokenizer(t)["input_ids"] for t in texts]

    def __len__(self):
        return len(self.enc)

    def __getitem__(self, i):
        return {"input_ids": self.enc[i]}


train_ds = CountingDataset(texts[:5500])
eval_ds = CountingDataset(texts[5500:])

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
    output_dir="/tmp/s44/batch-23/r23E-transformers-finetuned-lm-never-stops-repro/out",
    per_device_train_batch_size=64,
    per_device_eval_batch_size=64,
    num_train_epochs=5,
    learning_rate=2e-3,
    warmup_steps=30,
    logging_steps=50,
    eval_strategy="epoch",
    save_strategy="no",
    report_to="none",
    disable_tqdm=True,
    use_cpu=True,
    dataloader_num_workers=0,
    seed=0,
)

trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  data_collator=collator)
trainer.train()

# ---- sample ---------------------------------------------------------------
model.eval()
n_stopped, n_correct, n = 0, 0, 50
for k in range(n):
    a = random.randint(0, MAXN - 10)
    b = a + random.randint(1, 9)
    prompt = f"from {a} to {b} :"
    ids = tokenizer(prompt, add_special_tokens=False, return_tensors="pt")
    with torch.no_grad():
        out = model.generate(**ids, max_new_tokens=25, do_sample=False,
                             pad_token_id=tokenizer.pad_token_id)
    new = out[0, ids["input_ids"].shape[1]:].tolist()
    stopped = tokenizer.eos_token_id in new
    text = tokenizer.decode(new, skip_special_tokens=True)
    want = " ".join(str(i) for i in range(a, b + 1))
    n_stopped += stopped
    n_correct += stopped and text.strip() == want
    if k < 5:
        print(f"{prompt!r} -> {text!r}  (emitted </s>: {stopped}, len={len(new)})")

print(f"generations that stopped by themselves: {n_stopped}/{n}")
print(f"exact-match generations: {n_correct}/{n}")
