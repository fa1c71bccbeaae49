"""Fine-tune a small GPT-2 style LM on support-chat transcripts with role tags."""
import os
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers, decoders
from torch.utils.data import DataLoader, Dataset
from transformers import (AutoModelForCausalLM, AutoTokenizer, GPT2Config,
                          GPT2LMHeadModel, PreTrainedTokenizerFast,
                          get_linear_schedule_with_warmup)

BASE = "./tiny-gpt2-base"   # local copy of the base checkpoint (no internet on this box)
OUT = "./chat-gpt2"
MAX_LEN = 96

QUESTIONS = ["how do i reset my password", "where is my order", "can i change my delivery address",
             "my invoice is wrong", "how do i cancel my subscription", "the app crashes on start"]
ANSWERS = ["go to settings and choose reset password", "your order ships within two days",
           "yes you can edit the address in your account", "we will send a corrected invoice",
           "open billing and press cancel subscription", "please update the app to the latest version"]


def corpus(n, seed):
    rng = random.Random(seed)
    return [(rng.choice(QUESTIONS), rng.choice(ANSWERS)) for _ in range(n)]


def ensure_base():
    """The base model was pretrained on plain text; recreate the local copy if missing."""
    if os.path.isdir(BASE):
        return
    raw = Tokenizer(models.BPE())
    raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    raw.decoder = decoders.ByteLevel()
    texts = [q + " " + a for q, a in corpus(2000, 0)] * 3
    raw.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=400, special_tokens=["<|endoftext|>"]))
    tok = PreTrainedTokenizerFast(tokenizer_object=raw, bos_token="<|endoftext|>",
                                  eos_token="<|endoftext|>", unk_token="<|endoftext|>")
    cfg = GPT2Config(vocab_size=len(tok), n_positions=128, n_embd=64, n_layer=2, n_head=4,
                     bos_token_id=tok.eos_token_id, eos_token_id=tok.eos_token_id)
    GPT2LMHeadModel(cfg).save_pretrained(BASE)
    tok.save_pretrained(BASE)


class ChatDataset(Dataset):
    def __init__(self, pairs, tok):
        self.examples = []
        for q, a in pairs:
            text = f"<|user|> {q} <|assistant|> {a}{tok.eos_token}"
            ids = tok(text, truncation=True, max_length=MAX_LEN)["input_ids"]
            self.examples.append(torch.tensor(ids))

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, i):
        return self.examples[i]


def collate(batch, pad_id):
    ids = torch.nn.utils.rnn.pad_sequence(batch, batch_first=True, padding_value=pad_id)
    mask = (torch.arange(ids.shape[1])[None, :] < torch.tensor([len(b) for b in batch])[:, None]).long()
    labels = ids.masked_fill(mask == 0, -100)
    return {"input_ids": ids, "attention_mask": mask, "labels": labels}


def main():
    torch.manual_seed(0)
    ensure_base()
    tokenizer = AutoTokenizer.from_pretrained(BASE)
    model = AutoModelForCausalLM.from_pretrained(BASE)

    # chat format: role tags + a real pad token
    tokenizer.add_special_tokens({"pad_token": "<|pad|>",
                                  "additional_special_tokens": ["<|user|>", "<|assistant|>"]})
    print(f"tokenizer size: {len(tokenizer)}  model params: {sum(p.numel() for p in model.parameters()):,}")

    ds = ChatDataset(corpus(1200, 1), tokenizer)
    dl = DataLoader(ds, batch_size=16, shuffle=True,
                    collate_fn=lambda b: collate(b, tokenizer.pad_token_id))
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.01)
    sched = get_linear_schedule_with_warmup(opt, 20, len(dl) * 3)

    model.train()
    for epoch in range(3):
        for step, batch in enumerate(dl):
            out = model(**batch)
            out.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            if step % 20 == 0:
                print(f"epoch {epoch} step {step} loss {out.loss.item():.4f}")
    model.save_pretrained(OUT)
    tokenizer.save_pretrained(OUT)


if __name__ == "__main__":
    main()
