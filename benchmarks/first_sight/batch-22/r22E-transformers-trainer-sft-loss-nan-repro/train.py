"""SFT of a small causal LM on synthetic 'read the record, answer the question' data with
the HF Trainer. Loss is computed only on answer tokens and averaged per example so that
long answers do not dominate the batch."""
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast, Trainer,
                          TrainingArguments, set_seed)

set_seed(0)
random.seed(0)
torch.set_num_threads(1)

KEYS = [f"k{i}" for i in range(40)]
VALS = [f"v{i}" for i in range(40)]
words = ["<pad>", "<s>", "</s>", "<unk>", "record:", "question:", "answer:", "=", ";"] + KEYS + VALS
tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", bos_token="<s>",
                                    eos_token="</s>", unk_token="<unk>")
MAX_LEN = 96
VALUE_OF = dict(zip(KEYS, random.sample(VALS, len(VALS))))  # the "database" the records are drawn from


def make_example():
    n_fields = random.choice([3, 4, 5, 6, 8, 10, 12, 16, 24])
    keys = random.sample(KEYS, n_fields)
    rec = {k: VALUE_OF[k] if random.random() < 0.9 else random.choice(VALS) for k in keys}
    q = random.choice(keys)
    prompt = "<s> record: " + " ; ".join(f"{k} = {v}" for k, v in rec.items()) + f" question: {q} answer:"
    return prompt, f" {rec[q]} </s>"


class SFTData(torch.utils.data.Dataset):
    def __init__(self, n):
        self.rows = [make_example() for _ in range(n)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        prompt, answer = self.rows[i]
        n_prompt = len(tokenizer(prompt, add_special_tokens=False)["input_ids"])
        enc = tokenizer(prompt + answer, add_special_tokens=False, truncation=True, max_length=MAX_LEN)
        ids = enc["input_ids"]
        labels = [-100] * min(n_prompt, len(ids)) + ids[n_prompt:]
        return {"input_ids": ids, "labels": labels}


def collate(features):
    width = max(len(f["input_ids"]) for f in features)
    ids = torch.full((len(features), width), tokenizer.pad_token_id)
    labels = torch.full((len(features), width), -100)
    mask = torch.zeros((len(features), width), dtype=torch.long)
    for i, f in enumerate(features):
        n = len(f["input_ids"])
        ids[i, :n] = torch.tensor(f["input_ids"])
        labels[i, :n] = torch.tensor(f["labels"])
        mask[i, :n] = 1
    return {"input_ids": ids, "attention_mask": mask, "labels": labels}


class PerExampleLossTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        logprobs = outputs.logits[:, :-1].float().log_softmax(-1)
        targets = labels[:, 1:]
        valid = (targets != -100).float()
        tok_logp = logprobs.gather(-1, targets.clamp(min=0).unsqueeze(-1)).squeeze(-1)
        per_example = -(tok_logp * valid).sum(1) / valid.sum(1)
        loss = per_example.mean()
        return (loss, outputs) if return_outputs else loss


config = LlamaConfig(vocab_size=len(words), hidden_size=96, intermediate_size=192, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=128,
                     pad_token_id=0, bos_token_id=1, eos_token_id=2)
model = LlamaForCausalLM(config)

args = TrainingArguments(output_dir="runs/sft-kv", per_device_train_batch_size=16, num_train_epochs=2,
                         learning_rate=2e-3, lr_scheduler_type="cosine", warmup_steps=20, logging_steps=10,
                         save_strategy="no", report_to="none", use_cpu=True, disable_tqdm=True)
trainer = PerExampleLossTrainer(model=model, args=args, train_dataset=SFTData(2400), data_collator=collate)
trainer.train()

model.eval()
test = [make_example() for _ in range(200)]
hits = 0
for prompt, answer in test:
    enc = tokenizer(prompt, return_tensors="pt", add_special_tokens=False)
    with torch.no_grad():
        nxt = model(**enc).logits[0, -1].argmax().item()
    hits += tokenizer.convert_ids_to_tokens(nxt) == answer.split()[0]
print(f"answer accuracy on 200 fresh examples: {hits/200:.3f}")
