"""News-topic classifier: small BERT trained from scratch with the HF Trainer,
using a warmup + inverse-square-root schedule (as in fairseq / T5 pre-training)
instead of the default linear decay."""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

set_seed(0)
random.seed(0)

TOPICS = {
    "sports": ["match", "goal", "coach", "league", "season", "striker", "injury", "playoff"],
    "business": ["shares", "profit", "merger", "investors", "quarter", "revenue", "ceo", "market"],
    "science": ["study", "researchers", "telescope", "genome", "climate", "particle", "lab", "species"],
    "politics": ["election", "minister", "parliament", "vote", "policy", "senate", "campaign", "bill"],
}
COMMON = ["the", "a", "on", "in", "after", "new", "said", "report", "week", "today", "city",
          "officials", "local", "year", "first", "announced", "people", "big", "over", "with"]
LABELS = list(TOPICS)


def headline(label):
    words = random.choices(COMMON, k=random.randint(6, 14))
    for w in random.sample(TOPICS[LABELS[label]], 2):
        words.insert(random.randint(0, len(words)), w)
    return " ".join(words)


def split(n):
    ys = [random.randrange(4) for _ in range(n)]
    return [headline(y) for y in ys], ys


train_x, train_y = split(1280)
val_x, val_y = split(320)

wl = Tokenizer(models.WordLevel(unk_token="[UNK]"))
wl.pre_tokenizer = pre_tokenizers.Whitespace()
wl.train_from_iterator(train_x, trainers.WordLevelTrainer(
    special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tok = PreTrainedTokenizerFast(tokenizer_object=wl, pad_token="[PAD]", unk_token="[UNK]",
                              cls_token="[CLS]", sep_token="[SEP]")


class Headlines(torch.utils.data.Dataset):
    def __init__(self, texts, labels):
        self.items = [dict(tok(t, truncation=True, max_length=32), labels=l)
                      for t, l in zip(texts, labels)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


D_MODEL = 64
PEAK_LR = 1e-3
WARMUP = 60
config = BertConfig(vocab_size=len(tok), hidden_size=D_MODEL, num_hidden_layers=2,
                    num_attention_heads=2, intermediate_size=4 * D_MODEL,
                    max_position_embeddings=64, num_labels=4, pad_token_id=tok.pad_token_id)
model = BertForSequenceClassification(config)

optimizer = torch.optim.AdamW(model.parameters(), lr=PEAK_LR, betas=(0.9, 0.98), eps=1e-9,
                              weight_decay=0.01)


def inverse_sqrt_lr(step):
    """Linear warmup to PEAK_LR, then decay proportional to 1/sqrt(step)."""
    step = step + 1
    return PEAK_LR * min(step / WARMUP, (WARMUP / step) ** 0.5)


scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda=inverse_sqrt_lr)


def compute_metrics(p):
    return {"accuracy": float((np.argmax(p.predictions, -1) == p.label_ids).mean())}


args = TrainingArguments(
    output_dir="/tmp/news_topic_bert",
    per_device_train_batch_size=32,
    per_device_eval_batch_size=128,
    num_train_epochs=3,
    eval_strategy="epoch",
    logging_steps=10,
    save_strategy="no",
    report_to=[],
    use_cpu=True,
    disable_tqdm=True,
)
trainer = Trainer(model=model, args=args, train_dataset=Headlines(train_x, train_y),
                  eval_dataset=Headlines(val_x, val_y), data_collator=DataCollatorWithPadding(tok),
                  compute_metrics=compute_metrics, optimizers=(optimizer, scheduler))
trainer.train()
