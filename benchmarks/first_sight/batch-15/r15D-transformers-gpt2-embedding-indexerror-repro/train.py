import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from torch.utils.data import DataLoader
from transformers import (
    GPT2Config,
    GPT2LMHeadModel,
    PreTrainedTokenizerFast,
    DataCollatorForLanguageModeling,
)

random.seed(0)
torch.manual_seed(0)

WORDS = ("the a an order ticket refund shipping delay account password reset card "
         "payment invoice customer agent hello thanks please help issue resolved "
         "tomorrow today week days item broken replace return label email phone").split()


def make_dialogues(n):
    out = []
    for _ in range(n):
        ctx = " ".join(random.choices(WORDS, k=random.randint(5, 20)))
        resp = " ".join(random.choices(WORDS, k=random.randint(5, 20)))
        out.append((ctx, resp))
    return out


def build_tokenizer(corpus):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.WordLevelTrainer(special_tokens=["[UNK]", "[PAD]", "[EOS]"])
    tok.train_from_iterator(corpus, trainer)
    hf_tok = PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", eos_token="[EOS]"
    )
    hf_tok.add_special_tokens({"additional_special_tokens": ["<|user|>", "<|agent|>"]})
    return hf_tok


def main():
    dialogues = make_dialogues(2000)
    tokenizer = build_tokenizer([c + " " + r for c, r in dialogues])
    print("tokenizer ready, vocab size:", tokenizer.vocab_size)

    texts = [f"<|user|> {c} <|agent|> {r} [EOS]" for c, r in dialogues]
    enc = tokenizer(texts, truncation=True, max_length=64)
    features = [{"input_ids": ids} for ids in enc["input_ids"]]

    config = GPT2Config(
        vocab_size=tokenizer.vocab_size,
        n_positions=64,
        n_embd=128,
        n_layer=2,
        n_head=4,
        bos_token_id=tokenizer.eos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    model = GPT2LMHeadModel(config)
    print(f"model params: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M")

    collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)
    loader = DataLoader(features, batch_size=32, shuffle=True, collate_fn=collator)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)

    model.train()
    for epoch in range(2):
        for step, batch in enumerate(loader):
            out = model(**batch)
            out.loss.backward()
            opt.step()
            opt.zero_grad()
            if step % 20 == 0:
                print(f"epoch {epoch} step {step} loss {out.loss.item():.4f}")


if __name__ == "__main__":
    main()
