"""Address-field tagger (token classification) for parsing shipping labels, HF Trainer on CPU."""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (BertConfig, BertForTokenClassification, DataCollatorForTokenClassification,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

set_seed(3)
LABELS = ["O", "NAME", "STREET", "CITY", "ZIP"]
FIRST = "anna ben carla dmitri elena farid grace hiro ines jonas".split()
STREETS = "main oak elm pine maple cedar station church mill park".split()
CITIES = "leeds porto lyon graz aarhus bruges cork turin malmo split".split()
FILL = ["deliver", "to", "attn", "c/o", "street", "road", "no"]


def make_label(rng):
    words, tags = [], []
    for field in rng.sample(["NAME", "STREET", "CITY", "ZIP"], 4):
        if rng.random() < 0.3:
            words.append(rng.choice(FILL)); tags.append("O")
        if field == "NAME":
            toks = [rng.choice(FIRST)]
        elif field == "STREET":
            toks = [str(rng.randint(1, 99)), rng.choice(STREETS)]
        elif field == "CITY":
            toks = [rng.choice(CITIES)]
        else:
            toks = [str(rng.randint(10000, 99999))]
        words += toks
        tags += [field] * len(toks)
    return words, [LABELS.index(t) for t in tags]


def build_tokenizer():
    vocab = ["[PAD]", "[UNK]"] + FIRST + STREETS + CITIES + FILL + [str(i) for i in range(100)]
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(vocab)}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]")


class LabelDataset(torch.utils.data.Dataset):
    def __init__(self, n, tokenizer, seed):
        rng = random.Random(seed)
        self.items = []
        for _ in range(n):
            words, tags = make_label(rng)
            enc = tokenizer(words, is_split_into_words=True, truncation=True, max_length=24)
            enc["labels"] = [tags[w] if w is not None else -100 for w in enc.word_ids()]
            self.items.append(dict(enc))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def compute_metrics(p):
    preds = p.predictions.argmax(-1)
    mask = p.label_ids != -100
    return {"token_acc": float((preds[mask] == p.label_ids[mask]).mean())}


def main():
    tokenizer = build_tokenizer()
    train_ds, eval_ds = LabelDataset(3000, tokenizer, 1), LabelDataset(500, tokenizer, 2)
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=128, max_position_embeddings=32, num_labels=len(LABELS),
                        id2label=dict(enumerate(LABELS)), label2id={l: i for i, l in enumerate(LABELS)})
    model = BertForTokenClassification(config)

    args = TrainingArguments(output_dir="out/address-tagger", per_device_train_batch_size=32,
                             per_device_eval_batch_size=64, learning_rate=1e-3, num_train_epochs=3,
                             eval_strategy="epoch", save_strategy="no", logging_steps=30,
                             report_to="none", use_cpu=True, disable_tqdm=True)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                      data_collator=DataCollatorForTokenClassification(tokenizer),
                      compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
