"""News headline topic classifier: small BERT trained from scratch with the HF Trainer."""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

random.seed(0)
torch.manual_seed(0)

TOPICS = {
    "sports": ["striker", "coach", "league", "finals", "injury", "transfer", "season", "derby"],
    "business": ["shares", "profit", "merger", "investors", "inflation", "quarter", "startup", "bank"],
    "tech": ["chip", "smartphone", "software", "startup", "cloud", "ai", "update", "privacy"],
    "politics": ["minister", "election", "vote", "parliament", "bill", "campaign", "senate", "policy"],
}
FILLER = ["the", "a", "after", "new", "says", "amid", "over", "report", "week", "plans", "record",
          "local", "big", "first", "again", "talks", "surprise", "fans", "leaders", "city"]
LABELS = sorted(TOPICS)


def headline():
    topic = random.choice(LABELS)
    words = random.sample(TOPICS[topic], 2) + random.sample(FILLER, random.randint(4, 9))
    random.shuffle(words)
    return " ".join(words).capitalize(), LABELS.index(topic)


data = [headline() for _ in range(1500)]
train, test = data[:1300], data[1300:]

tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
tok.normalizer = normalizers.Lowercase()
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.train_from_iterator([t for t, _ in train],
                        trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]")


class HeadlineDataset(torch.utils.data.Dataset):
    """Tokenizes on the fly so we don't keep a second copy of the corpus in memory."""

    def __init__(self, pairs, tokenizer, max_length=32):
        self.texts = [t for t, _ in pairs]
        self.labels = [l for _, l in pairs]
        self.tokenizer = tokenizer
        self.max_length = max_length

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, idx):
        enc = self.tokenizer(self.texts, truncation=True, max_length=self.max_length)
        item = {k: v[idx] for k, v in enc.items()}
        item["labels"] = self.labels[idx]
        return item


config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2,
                    num_attention_heads=2, intermediate_size=128, max_position_embeddings=64,
                    num_labels=len(LABELS), pad_token_id=tokenizer.pad_token_id)
model = BertForSequenceClassification(config)


def compute_metrics(p):
    return {"accuracy": float((np.argmax(p.predictions, -1) == p.label_ids).mean())}


args = TrainingArguments(
    output_dir="headline-bert",
    per_device_train_batch_size=16,
    per_device_eval_batch_size=64,
    num_train_epochs=1,
    max_steps=20,
    learning_rate=5e-4,
    logging_steps=5,
    eval_strategy="no",
    save_strategy="no",
    report_to=[],
    use_cpu=True,
)
trainer = Trainer(model=model, args=args,
                  train_dataset=HeadlineDataset(train, tokenizer),
                  eval_dataset=HeadlineDataset(test, tokenizer),
                  data_collator=DataCollatorWithPadding(tokenizer),
                  compute_metrics=compute_metrics)
trainer.train()
print(trainer.evaluate())
