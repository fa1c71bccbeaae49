"""Shipping-label NER (BIO tags) with a small BERT, data-parallel on the 2-CPU build box via accelerate."""
import argparse
import random

import torch
from accelerate import Accelerator, notebook_launcher
from accelerate.utils import set_seed
from tokenizers import Tokenizer, models, pre_tokenizers
from torch.utils.data import DataLoader
from transformers import (BertConfig, BertForTokenClassification, DataCollatorForTokenClassification,
                          PreTrainedTokenizerFast)

TAGS = ["O", "B-PER", "I-PER", "B-CITY", "I-CITY", "B-ORG", "I-ORG"]
FIRST = ["anna", "jonas", "maria", "li", "omar", "sofia", "peter", "chen", "lucas", "emma"]
LAST = ["schmidt", "novak", "garcia", "wong", "haddad", "rossi", "berg", "kim"]
CITY = [["berlin"], ["new", "york"], ["sao", "paulo"], ["lyon"], ["hong", "kong"], ["oslo"], ["cape", "town"]]
ORG = [["acme", "gmbh"], ["nordic", "freight"], ["blue", "river", "logistics"], ["kappa", "ltd"]]
FILLER = "please deliver to c/o attn parcel for at the office of floor dock gate ref box".split()


def make_sentence(rng):
    words, tags = [], []
    for _ in range(rng.randint(1, 9)):
        r = rng.random()
        if r < 0.25:
            ent, lab = [rng.choice(FIRST), rng.choice(LAST)], "PER"
        elif r < 0.45:
            ent, lab = rng.choice(CITY), "CITY"
        elif r < 0.6:
            ent, lab = rng.choice(ORG), "ORG"
        else:
            w = [rng.choice(FILLER) for _ in range(rng.randint(1, 4))]
            words += w; tags += ["O"] * len(w)
            continue
        words += ent
        tags += [f"B-{lab}"] + [f"I-{lab}"] * (len(ent) - 1)
    return words, tags


def build_tokenizer():
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"] + sorted(set(FIRST + LAST + FILLER + sum(CITY + ORG, [])))
    tk = Tokenizer(models.WordLevel({w: i for i, w in enumerate(vocab)}, unk_token="[UNK]"))
    tk.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=tk, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", model_max_length=128)


def encode(tokenizer, words, tags):
    enc = tokenizer(words, is_split_into_words=True, truncation=True)
    labels = [-100 if w is None else TAGS.index(tags[w]) for w in enc.word_ids()]
    return {"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"], "labels": labels}


def main(args):
    accelerator = Accelerator(cpu=True)
    set_seed(args.seed)
    rng = random.Random(args.seed)
    tokenizer = build_tokenizer()
    train = [encode(tokenizer, *make_sentence(rng)) for _ in range(3000)]
    val = [encode(tokenizer, *make_sentence(rng)) for _ in range(600)]
    collator = DataCollatorForTokenClassification(tokenizer)
    train_dl = DataLoader(train, batch_size=32, shuffle=True, collate_fn=collator)
    val_dl = DataLoader(val, batch_size=32, collate_fn=collator)

    config = BertConfig(vocab_size=len(tokenizer), hidden_size=96, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=192, num_labels=len(TAGS), max_position_embeddings=128)
    model = BertForTokenClassification(config)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model, opt, train_dl, val_dl = accelerator.prepare(model, opt, train_dl, val_dl)
    accelerator.print(f"processes={accelerator.num_processes} train={len(train)} val={len(val)} "
                      f"steps/epoch/process={len(train_dl)}")

    for epoch in range(args.epochs):
        model.train()
        for step, batch in enumerate(train_dl):
            loss = model(**batch).loss
            accelerator.backward(loss)
            opt.step(); opt.zero_grad()
            if step % 20 == 0:
                accelerator.print(f"epoch {epoch} step {step} loss {loss.item():.4f}")

        model.eval()
        correct = total = 0
        for batch in val_dl:
            with torch.no_grad():
                preds = model(**batch).logits.argmax(-1)
            preds, labels = accelerator.gather_for_metrics((preds, batch["labels"]))
            mask = labels != -100
            correct += (preds[mask] == labels[mask]).sum().item()
            total += mask.sum().item()
        accelerator.print(f"epoch {epoch} val token accuracy {correct / total:.4f}")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--num_processes", type=int, default=2)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    notebook_launcher(main, (args,), num_processes=args.num_processes)
