"""Shipping-notice NER (PER / ORG / LOC) with a small BERT token classifier
trained from scratch with the HF Trainer. Word-level gold tags come from the
annotation export; a WordPiece tokenizer is trained on the notices."""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (BertConfig, BertForTokenClassification, DataCollatorForTokenClassification,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

set_seed(0)
random.seed(0)

FIRST = ["maria", "johannes", "akira", "fatima", "oluwaseun", "krzysztof", "ingrid", "rahul"]
LAST = ["kowalczyk", "fernandez", "takahashi", "okonkwo", "lindqvist", "bhattacharya", "moreau"]
ORG = [["maersk", "logistics"], ["hapag", "lloyd"], ["dhl", "freight"], ["kuehne", "nagel"],
       ["cosco", "shipping"], ["evergreen", "marine"]]
LOC = [["rotterdam"], ["hamburg"], ["singapore"], ["los", "angeles"], ["antwerp"],
       ["shanghai"], ["felixstowe"], ["valparaiso"]]
TEMPLATES = [
    "PER from ORG confirmed the container left LOC yesterday",
    "the shipment for ORG is delayed in LOC according to PER",
    "please contact PER at ORG before the vessel reaches LOC",
    "ORG has assigned PER to handle customs clearance in LOC",
    "cargo inspected at LOC by PER on behalf of ORG",
]
TAGS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC"]
T2I = {t: i for i, t in enumerate(TAGS)}


def notice():
    words, tags = [], []
    for slot in random.choice(TEMPLATES).split():
        if slot == "PER":
            ent, typ = [random.choice(FIRST), random.choice(LAST)], "PER"
        elif slot == "ORG":
            ent, typ = random.choice(ORG), "ORG"
        elif slot == "LOC":
            ent, typ = random.choice(LOC), "LOC"
        else:
            words.append(slot)
            tags.append("O")
            continue
        words += ent
        tags += [f"B-{typ}"] + [f"I-{typ}"] * (len(ent) - 1)
    return words, tags


train_rows = [notice() for _ in range(960)]
val_rows = [notice() for _ in range(200)]

wp = Tokenizer(models.WordPiece(unk_token="[UNK]"))
wp.normalizer = normalizers.Lowercase()
wp.pre_tokenizer = pre_tokenizers.Whitespace()
wp.decoder = decoders.WordPiece()
wp.post_processor = processors.TemplateProcessing(
    single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
wp.train_from_iterator([" ".join(w) for w, _ in train_rows], trainers.WordPieceTrainer(
    vocab_size=120, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tok = PreTrainedTokenizerFast(tokenizer_object=wp, pad_token="[PAD]", unk_token="[UNK]",
                              cls_token="[CLS]", sep_token="[SEP]")


def encode(words, tags):
    enc = tok(words, is_split_into_words=True, truncation=True, max_length=64)
    n = len(enc["input_ids"])
    # [CLS] and [SEP] get -100, every word gets its tag
    labels = [-100] + [T2I[t] for t in tags][: n - 2] + [-100]
    labels += [-100] * (n - len(labels))
    enc["labels"] = labels
    return enc


class NoticeDataset(torch.utils.data.Dataset):
    def __init__(self, rows):
        self.items = [encode(w, t) for w, t in rows]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return dict(self.items[i])


def compute_metrics(p):
    preds = np.argmax(p.predictions, -1)
    keep = p.label_ids != -100
    return {"token_accuracy": float((preds[keep] == p.label_ids[keep]).mean())}


config = BertConfig(vocab_size=len(tok), hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                    intermediate_size=256, max_position_embeddings=128, num_labels=len(TAGS),
                    pad_token_id=tok.pad_token_id)
model = BertForTokenClassification(config)
args = TrainingArguments(output_dir="/tmp/notice_ner", per_device_train_batch_size=32,
                         per_device_eval_batch_size=64, learning_rate=2e-3, num_train_epochs=4,
                         warmup_steps=15, eval_strategy="epoch", logging_steps=25, save_strategy="no",
                         report_to=[], use_cpu=True, disable_tqdm=True)
trainer = Trainer(model=model, args=args, train_dataset=NoticeDataset(train_rows),
                  eval_dataset=NoticeDataset(val_rows),
                  data_collator=DataCollatorForTokenClassification(tok),
                  compute_metrics=compute_metrics)
trainer.train()


def tag_words(words):
    """Tag of each word = prediction on its first sub-token."""
    enc = tok(words, is_split_into_words=True, return_tensors="pt")
    with torch.no_grad():
        pred = model(**enc).logits.argmax(-1)[0].tolist()
    out, seen = [], set()
    for pos, wid in enumerate(enc.word_ids()):
        if wid is not None and wid not in seen:
            seen.add(wid)
            out.append(TAGS[pred[pos]])
    return out


def spans(tags):
    res, cur = set(), None
    for i, t in enumerate(tags + ["O"]):
        if cur and not t.startswith("I-"):
            res.add((cur[0], cur[1], i))
            cur = None
        if t.startswith("B-"):
            cur = (t[2:], i)
    return res


model.eval()
tp = fp = fn = 0
for words, gold in val_rows:
    p, g = spans(tag_words(words)), spans(gold)
    tp, fp, fn = tp + len(p & g), fp + len(p - g), fn + len(g - p)
prec, rec = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
print(f"validation entity P {prec:.3f} R {rec:.3f} F1 {2 * prec * rec / max(prec + rec, 1e-9):.3f}")
for words, _ in val_rows[:3]:
    print(" ".join(f"{w}/{t}" for w, t in zip(words, tag_words(words))))
