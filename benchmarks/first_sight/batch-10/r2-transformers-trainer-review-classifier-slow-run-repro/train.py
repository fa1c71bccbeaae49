"""Fine-tune a small BERT-style classifier on product reviews with the HF Trainer."""
import random
import time

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
from transformers import (BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments)

random.seed(0)
torch.manual_seed(0)

POS = ["great", "excellent", "love", "perfect", "sturdy", "fast", "recommend", "happy"]
NEG = ["broken", "terrible", "refund", "slow", "cheap", "disappointed", "returned", "awful"]
FILL = ["the", "this", "product", "arrived", "it", "was", "and", "i", "after", "a", "week",
        "battery", "box", "quality", "price", "my", "kids", "use", "every", "day", "works"]


def make_reviews(n):
    rows = []
    for _ in range(n):
        label = random.randint(0, 1)
        words = random.choices(FILL, k=random.randint(12, 40))
        for _ in range(random.randint(1, 3)):
            words.insert(random.randrange(len(words)), random.choice(POS if label else NEG))
        rows.append((" ".join(words), label))
    return rows


train_rows, val_rows = make_reviews(1600), make_reviews(5000)

tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.train_from_iterator([t for t, _ in train_rows],
                        trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tok.post_processor = processors.TemplateProcessing(
    single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]")


class ReviewDataset(torch.utils.data.Dataset):
    def __init__(self, rows):
        self.enc = tokenizer([t for t, _ in rows], truncation=True, max_length=64,
                             padding="max_length")
        self.labels = [l for _, l in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: torch.tensor(v[i]) for k, v in self.enc.items()}
        item["labels"] = torch.tensor(self.labels[i])
        return item


config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2,
                    num_attention_heads=2, intermediate_size=128, max_position_embeddings=64,
                    num_labels=2)
model = BertForSequenceClassification(config)


def compute_metrics(p):
    return {"accuracy": float((np.argmax(p.predictions, -1) == p.label_ids).mean())}


args = TrainingArguments(
    output_dir="out",
    num_train_epochs=1,
    per_device_train_batch_size=16,
    per_device_eval_batch_size=64,
    learning_rate=1e-3,
    eval_strategy="steps",
    logging_steps=5,
    save_strategy="no",
    report_to=[],
    disable_tqdm=True,
    use_cpu=True,
    seed=0,
)
trainer = Trainer(model=model, args=args, train_dataset=ReviewDataset(train_rows),
                  eval_dataset=ReviewDataset(val_rows), compute_metrics=compute_metrics)
print(f"train {len(train_rows)} reviews / val {len(val_rows)} reviews, "
      f"{len(train_rows) // 16} optimizer steps", flush=True)
t0 = time.time()
trainer.train()
print(f"wall time for 1 epoch: {time.time() - t0:.1f}s", flush=True)
