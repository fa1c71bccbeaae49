"""Intent classifier for the voice-assistant NLU (DistilBERT-size model trained from scratch).

After training, the same model is used to export sentence embeddings for the
nearest-neighbour fallback, so it is built with hidden states exposed.
"""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, processors
from transformers import (DataCollatorWithPadding, DistilBertConfig, DistilBertForSequenceClassification,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

INTENTS = {
    "set_timer": ["set a timer for {n} minutes", "timer {n} minutes please", "start a {n} minute timer"],
    "weather": ["what is the weather in {c}", "will it rain in {c} today", "weather forecast for {c}"],
    "play_music": ["play some {g}", "put on {g} music", "i want to hear {g}"],
    "call": ["call {p}", "phone {p} now", "ring {p} on mobile"],
    "lights": ["turn off the lights in the {r}", "dim the {r} lights", "switch on the {r} lamp"],
}
FILL = {"n": [str(i) for i in range(1, 60)], "c": ["paris", "oslo", "lima", "tokyo", "cairo", "berlin"],
        "g": ["jazz", "rock", "lofi", "classical", "techno"], "p": ["mom", "alex", "the office", "sam", "dr lee"],
        "r": ["kitchen", "bedroom", "hall", "garage", "living room"]}
LABELS = list(INTENTS)


def sample(rng):
    y = rng.randrange(len(LABELS))
    t = rng.choice(INTENTS[LABELS[y]])
    for k, vals in FILL.items():
        t = t.replace("{" + k + "}", rng.choice(vals))
    return t, y


def build_tokenizer(texts):
    words = sorted({w for t in texts for w in t.split()})
    vocab = {w: i for i, w in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]"] + words)}
    tk = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tk.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tk.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]",
                                                      special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    return PreTrainedTokenizerFast(tokenizer_object=tk, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", model_max_length=32)


class Utterances(torch.utils.data.Dataset):
    def __init__(self, rows, tok):
        self.rows, self.tok = rows, tok

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, y = self.rows[i]
        enc = self.tok(text, truncation=True)
        enc.pop("token_type_ids", None)
        return {**enc, "labels": y}


def compute_metrics(eval_pred):
    logits, labels = eval_pred.predictions, eval_pred.label_ids
    preds = np.argmax(logits, axis=-1)
    acc = (preds == labels).mean()
    f1s = []
    for c in range(len(LABELS)):
        tp = ((preds == c) & (labels == c)).sum()
        fp = ((preds == c) & (labels != c)).sum()
        fn = ((preds != c) & (labels == c)).sum()
        f1s.append(2 * tp / max(2 * tp + fp + fn, 1))
    return {"accuracy": float(acc), "macro_f1": float(np.mean(f1s))}


def main():
    set_seed(7)
    rng = random.Random(7)
    rows = [sample(rng) for _ in range(3000)]
    tok = build_tokenizer([t for t, _ in rows])
    train_rows, eval_rows = rows[:2500], rows[2500:]

    config = DistilBertConfig(vocab_size=len(tok), dim=64, hidden_dim=128, n_layers=2, n_heads=4,
                              max_position_embeddings=32, num_labels=len(LABELS), pad_token_id=tok.pad_token_id,
                              id2label=dict(enumerate(LABELS)), label2id={l: i for i, l in enumerate(LABELS)},
                              output_hidden_states=True)
    model = DistilBertForSequenceClassification(config)

    args = TrainingArguments(output_dir="/tmp/nlu-intent", num_train_epochs=3, learning_rate=1e-3,
                             per_device_train_batch_size=32, per_device_eval_batch_size=64,
                             eval_strategy="epoch", save_strategy="no", logging_steps=25,
                             report_to=[], disable_tqdm=True, use_cpu=True, seed=7)
    trainer = Trainer(model=model, args=args, train_dataset=Utterances(train_rows, tok),
                      eval_dataset=Utterances(eval_rows, tok), data_collator=DataCollatorWithPadding(tok),
                      compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate())

    # export [CLS] embeddings for the kNN fallback index
    model.eval()
    with torch.no_grad():
        batch = tok([t for t, _ in train_rows], padding=True, return_tensors="pt")
        batch.pop("token_type_ids", None)
        emb = model(**batch).hidden_states[-1][:, 0]
    torch.save({"emb": emb, "labels": [y for _, y in train_rows]}, "/tmp/nlu-intent/knn_index.pt")
    print("saved kNN index", tuple(emb.shape))


if __name__ == "__main__":
    main()
