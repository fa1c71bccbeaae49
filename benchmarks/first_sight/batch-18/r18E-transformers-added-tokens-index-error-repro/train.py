import os
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers, decoders
from torch.utils.data import DataLoader
from transformers import AutoModelForCausalLM, AutoTokenizer, GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

random.seed(0)
torch.manual_seed(0)
BASE = "/tmp/r18e_base_lm"   # our small in-house base LM (normally pulled from the model store)

NOUNS = "cat dog weather train ticket order refund password account invoice delivery".split()
VERBS = "check cancel reset update track change book find".split()


def sentence():
    return f"please {random.choice(VERBS)} my {random.choice(NOUNS)} for {random.choice(['today', 'tomorrow', 'monday'])}"


def ensure_base_model():
    if os.path.exists(os.path.join(BASE, "config.json")):
        return
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator([sentence() for _ in range(2000)],
                            trainers.BpeTrainer(vocab_size=400, special_tokens=["<|endoftext|>"],
                                                initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|endoftext|>", bos_token="<|endoftext|>")
    cfg = GPT2Config(vocab_size=len(fast), n_positions=128, n_embd=64, n_layer=2, n_head=4,
                     bos_token_id=fast.eos_token_id, eos_token_id=fast.eos_token_id)
    GPT2LMHeadModel(cfg).save_pretrained(BASE)
    fast.save_pretrained(BASE)


ensure_base_model()

# ---------------- fine-tune the base model on chat-formatted data ----------------
tokenizer = AutoTokenizer.from_pretrained(BASE)
tokenizer.add_special_tokens({"pad_token": "<|pad|>",
                              "additional_special_tokens": ["<|user|>", "<|assistant|>"]})
model = AutoModelForCausalLM.from_pretrained(BASE)
print(f"tokenizer size {len(tokenizer)}, model n_positions {model.config.n_positions}")


def chat_example():
    q = sentence()
    a = f"ok, I will {q.split()[1]} your {q.split()[3]} now"
    return f"<|user|> {q} <|assistant|> {a}{tokenizer.eos_token}"


texts = [chat_example() for _ in range(512)]


def collate(batch):
    enc = tokenizer(batch, padding=True, truncation=True, max_length=64, return_tensors="pt")
    labels = enc["input_ids"].clone()
    labels[enc["attention_mask"] == 0] = -100
    enc["labels"] = labels
    return enc


loader = DataLoader(texts, batch_size=16, shuffle=True, collate_fn=collate)
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
model.train()
for epoch in range(2):
    for step, batch in enumerate(loader):
        loss = model(**batch).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 8 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}")

model.save_pretrained("/tmp/r18e_chat_lm")
tokenizer.save_pretrained("/tmp/r18e_chat_lm")
prompt = tokenizer("<|user|> please cancel my order for today <|assistant|>", return_tensors="pt")
out = model.generate(**prompt, max_new_tokens=12, do_sample=False, pad_token_id=tokenizer.pad_token_id)
print(tokenizer.decode(out[0]))
