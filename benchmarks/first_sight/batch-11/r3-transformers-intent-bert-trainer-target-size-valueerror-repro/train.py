"""Intent classifier for the banking chatbot: fine-tune a small BERT with the HF Trainer.

Model hyper-parameters come from the shared encoder config that the NLU team
uses for all of its BERT heads (see MODEL_CONFIG below).
"""
import random

import numpy as np
import torch
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification, BertTokenizer, DataCollatorWithPadding,
                          Trainer, TrainingArguments)

INTENTS = ["card_lost", "balance", "transfer", "open_account", "complaint"]
KEYWORDS = {
    "card_lost": ["lost", "stolen", "card", "block", "missing"],
    "balance": ["balance", "much", "left", "available", "funds"],
    "transfer": ["send", "transfer", "wire", "iban", "pay"],
    "open_account": ["open", "new", "savings", "account", "join"],
    "complaint": ["angry", "terrible", "complain", "unacceptable", "waited"],
}
FILLER = "i my me want to the a please can you how do is it what now today need help with".split()

# shared encoder settings (copied from configs/nlu_encoder.json)
MODEL_CONFIG = {
    "hidden_size": 128,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "intermediate_size": 512,
    "max_position_embeddings": 64,
    "hidden_dropout_prob": 0.1,
    "classifier_dropout": 0.1,
    "problem_type": "multi_label_classification",
}


def build_tokenizer():
    words = sorted({w for ws in KEYWORDS.values() for w in ws} | set(FILLER))
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + words
    return BertTokenizer(vocab={w: i for i, w in enumerate(vocab)}, model_max_length=64)


def make_utterances(n, seed):
    rnd = random.Random(seed)
    rows = []
    for _ in range(n):
        label = rnd.randrange(len(INTENTS))
        words = rnd.choices(FILLER, k=rnd.randint(3, 10)) + rnd.choices(KEYWORDS[INTENTS[label]], k=2)
        rnd.shuffle(words)
        rows.append((" ".join(words), label))
    return rows


class IntentDataset(Dataset):
    def __init__(self, rows, tokenizer):
        self.enc = tokenizer([t for t, _ in rows], truncation=True, max_length=64)
        self.labels = [l for _, l in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: v[i] for k, v in self.enc.items()}
        item["labels"] = self.labels[i]
        return item


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    return {"accuracy": float((np.argmax(logits, -1) == labels).mean())}


def main():
    torch.manual_seed(0)
    tokenizer = build_tokenizer()
    train_ds = IntentDataset(make_utterances(2000, 1), tokenizer)
    eval_ds = IntentDataset(make_utterances(400, 2), tokenizer)
    print(f"train {len(train_ds)}  eval {len(eval_ds)}  intents {INTENTS}")

    config = BertConfig(vocab_size=len(tokenizer), num_labels=len(INTENTS),
                        id2label=dict(enumerate(INTENTS)), label2id={l: i for i, l in enumerate(INTENTS)},
                        **MODEL_CONFIG)
    model = BertForSequenceClassification(config)

    args = TrainingArguments(
        output_dir="out/intent-bert",
        per_device_train_batch_size=32,
        per_device_eval_batch_size=64,
        num_train_epochs=3,
        learning_rate=1e-3,
        warmup_steps=20,
        logging_steps=20,
        eval_strategy="epoch",
        save_strategy="no",
        report_to="none",
        disable_tqdm=True,
        use_cpu=True,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                      data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
