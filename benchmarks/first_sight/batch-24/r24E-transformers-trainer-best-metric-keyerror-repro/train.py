"""Token classification (toy NER) with DistilBERT trained from scratch via the HF Trainer."""
import random

import numpy as np
from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
from transformers import (
    DataCollatorForTokenClassification,
    DistilBertConfig,
    DistilBertForTokenClassification,
    EarlyStoppingCallback,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
)

rng = random.Random(3)
LABELS = ["O", "B-PER", "I-PER", "B-CITY"]
FIRST = ["anna", "bernd", "chloe", "dmitri", "elena", "farid", "greta", "hiro"]
LAST = ["schmidt", "novak", "okafor", "larsen", "moreau", "tanaka"]
CITIES = ["berlin", "lagos", "osaka", "lyon", "oslo", "porto", "krakow"]
CONTEXT = "yesterday met in the office from visited moved to and then went back home with".split()


def sentence():
    words, tags = [], []
    for _ in range(rng.randint(3, 6)):
        r = rng.random()
        if r < 0.25:
            words += [rng.choice(FIRST), rng.choice(LAST)]; tags += [1, 2]
        elif r < 0.4:
            words.append(rng.choice(CITIES)); tags.append(3)
        else:
            w = rng.sample(CONTEXT, 2); words += w; tags += [0, 0]
    return words, tags


data = [sentence() for _ in range(2400)]
train_raw, eval_raw = data[:2000], data[2000:]

tk = Tokenizer(models.WordPiece(unk_token="[UNK]"))
tk.pre_tokenizer = pre_tokenizers.Whitespace()
tk.train_from_iterator((" ".join(w) for w, _ in train_raw),
                       trainers.WordPieceTrainer(vocab_size=120, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"],
                                                 show_progress=False))
tk.post_processor = processors.BertProcessing(("[SEP]", tk.token_to_id("[SEP]")), ("[CLS]", tk.token_to_id("[CLS]")))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tk, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]", model_max_length=64)


def encode(words, tags):
    enc = tokenizer(words, is_split_into_words=True, truncation=True)
    labels, prev = [], None
    for wid in enc.word_ids():
        labels.append(-100 if wid is None or wid == prev else tags[wid])
        prev = wid
    return {"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"], "labels": labels}


train_ds = [encode(*x) for x in train_raw]
eval_ds = [encode(*x) for x in eval_raw]


def compute_metrics(pred):
    preds = pred.predictions.argmax(-1)
    mask = pred.label_ids != -100
    p, y = preds[mask], pred.label_ids[mask]
    ent = y != 0
    tp = ((p == y) & ent).sum()
    precision = tp / max((p != 0).sum(), 1)
    recall = tp / max(ent.sum(), 1)
    f1 = 2 * precision * recall / max(precision + recall, 1e-9)
    return {"token_acc": float((p == y).mean()), "entity_f1": float(f1)}


config = DistilBertConfig(vocab_size=len(tokenizer), dim=128, hidden_dim=256, n_layers=2, n_heads=4,
                          max_position_embeddings=64, num_labels=len(LABELS),
                          id2label=dict(enumerate(LABELS)), label2id={l: i for i, l in enumerate(LABELS)},
                          pad_token_id=tokenizer.pad_token_id)
model = DistilBertForTokenClassification(config)

args = TrainingArguments(
    output_dir="ckpt_ner",
    num_train_epochs=8,
    per_device_train_batch_size=32,
    per_device_eval_batch_size=64,
    learning_rate=1e-3,
    warmup_steps=40,
    eval_strategy="epoch",
    save_strategy="epoch",
    save_total_limit=2,
    load_best_model_at_end=True,
    metric_for_best_model="f1",
    greater_is_better=True,
    logging_steps=20,
    disable_tqdm=True,
    report_to=[],
    use_cpu=True,
    seed=3,
)

trainer = Trainer(
    model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
    data_collator=DataCollatorForTokenClassification(tokenizer), processing_class=tokenizer,
    compute_metrics=compute_metrics, callbacks=[EarlyStoppingCallback(early_stopping_patience=2)],
)
trainer.train()
print("best checkpoint:", trainer.state.best_model_checkpoint, "best metric:", trainer.state.best_metric)
print(trainer.evaluate())
