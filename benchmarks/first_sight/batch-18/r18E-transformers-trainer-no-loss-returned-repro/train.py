import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

random.seed(0)
torch.manual_seed(0)

INTENTS = ["billing", "shipping", "account"]
KEYWORDS = {0: "invoice charge refund price", 1: "parcel courier delivery tracking", 2: "login password email profile"}
FILLER = "hello i have a question about my the it is not working please help thanks today".split()

words = sorted(set(FILLER + " ".join(KEYWORDS.values()).split()))
vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, **{w: i + 4 for i, w in enumerate(words)}}
core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
core.pre_tokenizer = pre_tokenizers.Whitespace()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]")


def make_ticket():
    y = random.randrange(3)
    w = random.choices(FILLER, k=random.randint(5, 20))
    w.insert(random.randrange(len(w)), random.choice(KEYWORDS[y].split()))
    return "[CLS] " + " ".join(w) + " [SEP]", y


class TicketDataset(Dataset):
    def __init__(self, n):
        self.rows = [make_ticket() for _ in range(n)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, intent = self.rows[i]
        enc = tokenizer(text, truncation=True, max_length=32)
        return {"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"], "target": intent}


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    return {"accuracy": float((np.argmax(logits, -1) == labels).mean())}


cfg = BertConfig(vocab_size=len(vocab), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                 intermediate_size=128, max_position_embeddings=64, num_labels=len(INTENTS),
                 id2label=dict(enumerate(INTENTS)), label2id={l: i for i, l in enumerate(INTENTS)})
model = BertForSequenceClassification(cfg)

train_ds, eval_ds = TicketDataset(3000), TicketDataset(500)
print("example:", train_ds[0])

args = TrainingArguments(
    output_dir="/tmp/r18e_intent_clf",
    num_train_epochs=3,
    per_device_train_batch_size=32,
    per_device_eval_batch_size=64,
    learning_rate=5e-4,
    warmup_steps=20,
    eval_strategy="epoch",
    save_strategy="no",
    logging_steps=25,
    use_cpu=True,
    report_to="none",
    seed=0,
)

trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
trainer.train()
print(trainer.evaluate())
