import random
import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, normalizers, trainers, processors, decoders
from transformers import (BertConfig, BertForTokenClassification, PreTrainedTokenizerFast,
                          DataCollatorForTokenClassification, Trainer, TrainingArguments)

random.seed(0)
torch.manual_seed(0)

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
label2id = {l: i for i, l in enumerate(LABELS)}
FIRST = ["Anneliese", "Bartholomew", "Chiara", "Dmitri", "Evangeline", "Fitzgerald", "Guadalupe", "Hiroshi"]
LAST = ["Okonkwo", "Vandermeer", "Castellanos", "Nakamura", "Abernathy", "Lindqvist", "Przybylski"]
CITY = [["Saskatoon"], ["Rio", "de", "Janeiro"], ["Wolverhampton"], ["Ouagadougou"], ["New", "Haven"], ["Thessaloniki"]]
VERB = ["met", "called", "visited", "emailed", "thanked", "interviewed"]
FILL = ["yesterday", "in", "the", "office", "near", "last", "week", "again", "during", "trip", "to"]

def sentence():
    toks, tags = [], []
    def add(ws, kind=None):
        for j, w in enumerate(ws):
            toks.append(w)
            tags.append("O" if kind is None else ("B-" if j == 0 else "I-") + kind)
    add([random.choice(FIRST), random.choice(LAST)], "PER")
    add([random.choice(VERB)])
    if random.random() < 0.5:
        add([random.choice(FIRST)], "PER")
    add(random.sample(FILL, random.randint(1, 4)))
    add(random.choice(CITY), "LOC")
    add(random.sample(FILL, random.randint(0, 5)))
    return toks, tags

train_s = [sentence() for _ in range(1500)]
eval_s = [sentence() for _ in range(300)]

# WordPiece tokenizer trained on our corpus
tk = Tokenizer(models.WordPiece(unk_token="[UNK]"))
tk.normalizer = normalizers.BertNormalizer(lowercase=True)
tk.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
tk.train_from_iterator([" ".join(t) for t, _ in train_s],
                       trainers.WordPieceTrainer(vocab_size=200, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
tk.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]",
                                                  special_tokens=[("[CLS]", tk.token_to_id("[CLS]")), ("[SEP]", tk.token_to_id("[SEP]"))])
tk.decoder = decoders.WordPiece()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tk, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")

def encode(sents):
    out = []
    for toks, tags in sents:
        enc = tokenizer(toks, is_split_into_words=True, truncation=True)
        labels, prev = [], None
        for wid in enc.word_ids():
            if wid is None or wid == prev:
                labels.append(-100)          # special tokens and continuation sub-words
            else:
                labels.append(label2id[tags[wid]])
            prev = wid
        out.append({"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"], "labels": labels})
    return out

train_ds, eval_ds = encode(train_s), encode(eval_s)
print(f"train {len(train_ds)} sents, eval {len(eval_ds)} sents, vocab {len(tokenizer)}")
print("example:", tokenizer.convert_ids_to_tokens(train_ds[0]["input_ids"]))

def compute_metrics(p):
    preds = np.argmax(p.predictions, axis=-1)
    labels = p.label_ids
    acc = (preds == labels).mean()
    ent = labels > 0
    ent_recall = (preds[ent] == labels[ent]).mean()
    return {"token_accuracy": acc, "entity_recall": ent_recall}

config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                    intermediate_size=128, num_labels=len(LABELS),
                    id2label=dict(enumerate(LABELS)), label2id=label2id)
model = BertForTokenClassification(config)
args = TrainingArguments(output_dir="./ner-tiny", per_device_train_batch_size=32, per_device_eval_batch_size=64,
                         num_train_epochs=4, learning_rate=3e-3, eval_strategy="epoch", logging_steps=25,
                         save_strategy="no", report_to=[], disable_tqdm=True, use_cpu=True, seed=0)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  data_collator=DataCollatorForTokenClassification(tokenizer), compute_metrics=compute_metrics)
trainer.train()

# spot check on a new sentence
model.eval()
toks = ["Chiara", "Lindqvist", "visited", "Rio", "de", "Janeiro", "last", "week"]
enc = tokenizer(toks, is_split_into_words=True, return_tensors="pt")
with torch.no_grad():
    pred = model(**enc).logits.argmax(-1)[0].tolist()
seen = set()
for i, wid in enumerate(enc.word_ids()):
    if wid is not None and wid not in seen:
        seen.add(wid)
        print(f"{toks[wid]:12s} {LABELS[pred[i]]}")
