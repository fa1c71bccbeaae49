"""Fine-tune a small causal LM with the HF Trainer on a synthetic "count from a to b" task."""
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, processors
from transformers import (
    DataCollatorForLanguageModeling,
    LlamaConfig,
    LlamaForCausalLM,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
    set_seed,
)

set_seed(42)
rng = random.Random(42)

# word-level tokenizer with Llama-style special tokens
words = ["<s>", "</s>", "<unk>", "count", "from", "to", ":"] + [str(i) for i in range(30)]
vocab = {w: i for i, w in enumerate(words)}
backend = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
backend.post_processor = processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", 0)])
tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, bos_token="<s>", eos_token="</s>", unk_token="<unk>")
tokenizer.pad_token = tokenizer.eos_token


def sample():
    a = rng.randint(0, 24)
    b = rng.randint(a + 1, min(a + 8, 29))
    return f"count from {a} to {b} :", " ".join(str(i) for i in range(a, b + 1))


def encode(prompt, answer):
    ids = tokenizer(f"{prompt} {answer}")["input_ids"] + [tokenizer.eos_token_id]
    return {"input_ids": ids, "attention_mask": [1] * len(ids)}


train_ds = [encode(*sample()) for _ in range(4000)]
eval_ds = [encode(*sample()) for _ in range(200)]
test_pairs = [sample() for _ in range(100)]

config = LlamaConfig(
    vocab_size=len(tokenizer), hidden_size=128, intermediate_size=256, num_hidden_layers=2,
    num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=64,
    bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
    pad_token_id=tokenizer.pad_token_id,
)
model = LlamaForCausalLM(config)

collator = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm=False)

args = TrainingArguments(
    output_dir="out",
    per_device_train_batch_size=64,
    per_device_eval_batch_size=64,
    num_train_epochs=4,
    learning_rate=3e-3,
    warmup_steps=20,
    lr_scheduler_type="cosine",
    logging_steps=25,
    eval_strategy="epoch",
    save_strategy="no",
    report_to=[],
    use_cpu=True,
    dataloader_num_workers=0,
    seed=42,
)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  data_collator=collator, processing_class=tokenizer)
trainer.train()

# ---- quick generation check ----
model.eval()
MAX_NEW = 24
exact, stopped = 0, 0
for i, (prompt, answer) in enumerate(test_pairs):
    enc = tokenizer(prompt, return_tensors="pt")
    with torch.no_grad():
        out = model.generate(**enc, max_new_tokens=MAX_NEW, do_sample=False)
    new = out[0, enc["input_ids"].shape[1]:]
    has_eos = (new == tokenizer.eos_token_id).any().item()
    text = tokenizer.decode(new, skip_special_tokens=True).strip()
    stopped += has_eos
    exact += text == answer
    if i < 4:
        print(f"{prompt!r} -> {text!r}  (expected {answer!r}, {len(new)} new tokens)")
print(f"generations that stopped on their own: {stopped}/{len(test_pairs)}")
print(f"exact match: {exact}/{len(test_pairs)}")
