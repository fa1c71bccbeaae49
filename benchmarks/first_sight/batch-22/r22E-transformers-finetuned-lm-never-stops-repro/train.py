"""Fine-tune a small causal LM on short Q/A pairs with the HF Trainer, then answer
held-out questions with greedy decoding."""
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (DataCollatorForLanguageModeling, GPT2Config, GPT2LMHeadModel,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

set_seed(0)
random.seed(0)
torch.set_num_threads(1)

COUNTRIES = [f"country{i}" for i in range(60)]
CITIES = [f"city{i}" for i in range(60)]
CAPITAL = dict(zip(COUNTRIES, random.sample(CITIES, len(CITIES))))
TEMPLATES = ["what is the capital of {c} ?", "name the capital city of {c} .", "{c} has which capital ?"]

vocab = ["<|endoftext|>", "<unk>", "Q:", "A:", "what", "is", "the", "capital", "of", "?", "name", "city",
         ".", "has", "which"] + COUNTRIES + CITIES
core = Tokenizer(models.WordLevel({w: i for i, w in enumerate(vocab)}, unk_token="<unk>"))
core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, eos_token="<|endoftext|>", bos_token="<|endoftext|>",
                                    unk_token="<unk>")
tokenizer.pad_token = tokenizer.eos_token


def qa(country):
    q = random.choice(TEMPLATES).format(c=country)
    return f"Q: {q} A:", f" {CAPITAL[country]}"


texts = [p + a + tokenizer.eos_token for p, a in (qa(random.choice(COUNTRIES)) for _ in range(3000))]


class QADataset(torch.utils.data.Dataset):
    def __init__(self, texts):
        self.enc = [tokenizer(t)["input_ids"] for t in texts]

    def __len__(self):
        return len(self.enc)

    def __getitem__(self, i):
        return {"input_ids": self.enc[i]}


config = GPT2Config(vocab_size=len(vocab), n_positions=64, n_embd=128, n_layer=2, n_head=4,
                    bos_token_id=tokenizer.eos_token_id, eos_token_id=tokenizer.eos_token_id)
model = GPT2LMHeadModel(config)

args = TrainingArguments(output_dir="runs/capitals-gpt2", per_device_train_batch_size=32, num_train_epochs=4,
                         learning_rate=2e-3, warmup_steps=20, lr_scheduler_type="cosine", logging_steps=50,
                         save_strategy="no", report_to="none", use_cpu=True, disable_tqdm=True)
trainer = Trainer(model=model, args=args, train_dataset=QADataset(texts),
                  data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False))
trainer.train()

# ---- inference ----
model.eval()
tokenizer.padding_side = "left"
correct, stopped, lengths = 0, 0, []
questions = [qa(c) for c in random.sample(COUNTRIES, 40)]
enc = tokenizer([p for p, _ in questions], return_tensors="pt", padding=True)
with torch.no_grad():
    out = model.generate(**enc, max_new_tokens=24, do_sample=False, pad_token_id=tokenizer.pad_token_id)
for (p, a), row in zip(questions, out[:, enc["input_ids"].shape[1]:].tolist()):
    n_new = row.index(tokenizer.eos_token_id) + 1 if tokenizer.eos_token_id in row else len(row)
    stopped += tokenizer.eos_token_id in row
    lengths.append(n_new)
    text = tokenizer.decode(row[:n_new], skip_special_tokens=True)
    correct += text.split()[:1] == a.split()
    if len(lengths) <= 4:
        print(f"{p!r} -> {text!r}")
print(f"answer correct: {correct}/40, stopped with EOS: {stopped}/40, "
      f"mean new tokens: {sum(lengths)/len(lengths):.1f} (max_new_tokens=24)")
