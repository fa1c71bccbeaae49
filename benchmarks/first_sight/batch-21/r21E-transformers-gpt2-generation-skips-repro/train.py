"""Tiny GPT-2 trained to continue arithmetic progressions ("7 10 13 16 ..."), HF Trainer on CPU."""
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed

set_seed(0)
random.seed(0)
MAX_VAL = 300

vocab = {"[PAD]": 0, "[BOS]": 1, "[EOS]": 2}
for v in range(MAX_VAL):
    vocab[str(v)] = len(vocab)
wl = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[PAD]"))
wl.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wl, pad_token="[PAD]", bos_token="[BOS]", eos_token="[EOS]")


def progression():
    d = random.choice([1, 2, 3, 4, 5, 7])
    n = random.randint(6, 14)
    a = random.randint(0, MAX_VAL - 1 - d * (n - 1))
    return [a + d * i for i in range(n)]


def encode(seq):
    return tokenizer("[BOS] " + " ".join(map(str, seq)))["input_ids"]


train_seqs = [encode(progression()) for _ in range(12000)]


class Seqs(torch.utils.data.Dataset):
    def __init__(self, seqs):
        self.seqs = seqs

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        return self.seqs[i]


def collate(batch):
    # next-token prediction: inputs are tokens[:-1], targets are tokens[1:]
    L = max(len(s) for s in batch) - 1
    input_ids = torch.full((len(batch), L), tokenizer.pad_token_id)
    labels = torch.full((len(batch), L), -100)
    attention_mask = torch.zeros((len(batch), L), dtype=torch.long)
    for i, s in enumerate(batch):
        s = torch.tensor(s)
        input_ids[i, :len(s) - 1] = s[:-1]
        labels[i, :len(s) - 1] = s[1:]
        attention_mask[i, :len(s) - 1] = 1
    return {"input_ids": input_ids, "labels": labels, "attention_mask": attention_mask}


config = GPT2Config(vocab_size=len(tokenizer), n_positions=32, n_embd=128, n_layer=3, n_head=4,
                    bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                    pad_token_id=tokenizer.pad_token_id)
model = GPT2LMHeadModel(config)

args = TrainingArguments(output_dir="out_prog", per_device_train_batch_size=64, num_train_epochs=3,
                         learning_rate=2e-3, warmup_steps=50, lr_scheduler_type="cosine", weight_decay=0.01,
                         logging_steps=50, save_strategy="no", report_to=[], use_cpu=True, disable_tqdm=True)
trainer = Trainer(model=model, args=args, train_dataset=Seqs(train_seqs), data_collator=collate)
trainer.train()

# ---- greedy continuation test ----
model.eval()
random.seed(123)
exact, total, shown = 0, 0, 0
for _ in range(200):
    seq = progression()
    prompt, target = seq[:5], seq[5:9]
    if len(target) < 4:
        continue
    enc = tokenizer("[BOS] " + " ".join(map(str, prompt)), return_tensors="pt")
    with torch.no_grad():
        out = model.generate(**enc, max_new_tokens=4, do_sample=False, pad_token_id=tokenizer.pad_token_id)
    pred = tokenizer.decode(out[0, enc["input_ids"].shape[1]:], skip_special_tokens=True).split()
    ok = pred == [str(x) for x in target]
    exact += ok
    total += 1
    if shown < 6:
        print(f"prompt {prompt} -> {' '.join(pred)}   expected {' '.join(map(str, target))}")
        shown += 1
print(f"exact-match continuation accuracy: {exact}/{total} = {exact / total:.1%}")
