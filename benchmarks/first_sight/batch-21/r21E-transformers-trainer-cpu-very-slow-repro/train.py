"""Intent classifier for short chat messages, fine-tuned with the HF Trainer on CPU."""
import random
import time

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast, Trainer,
                          TrainingArguments, set_seed)

set_seed(0)
random.seed(0)

INTENTS = {
    "billing": ["invoice", "charge", "refund", "payment", "card", "bill"],
    "shipping": ["delivery", "package", "tracking", "courier", "arrive", "shipped"],
    "account": ["password", "login", "email", "username", "locked", "reset"],
    "product": ["size", "color", "stock", "warranty", "material", "model"],
}
LABELS = sorted(INTENTS)
FILL = ["hi", "i", "my", "the", "is", "not", "can", "you", "help", "with", "please", "where", "why", "still", "a"]


def message():
    y = random.randrange(len(LABELS))
    w = random.choices(FILL, k=random.randint(3, 12)) + random.choices(INTENTS[LABELS[y]], k=random.randint(1, 2))
    random.shuffle(w)
    return " ".join(w), y


rows = [message() for _ in range(2200)]
train_rows, eval_rows = rows[:2000], rows[2000:]

wp = Tokenizer(models.WordPiece(unk_token="[UNK]"))
wp.normalizer = normalizers.BertNormalizer()
wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
wp.train_from_iterator([t for t, _ in rows], trainers.WordPieceTrainer(
    vocab_size=1000, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
wp.post_processor = processors.BertProcessing(("[SEP]", wp.token_to_id("[SEP]")), ("[CLS]", wp.token_to_id("[CLS]")))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wp, model_max_length=512, pad_token="[PAD]",
                                    unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")


class EncodedDataset(torch.utils.data.Dataset):
    def __init__(self, rows):
        enc = tokenizer([t for t, _ in rows], padding="max_length", truncation=True)
        self.items = [{"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i],
                       "labels": rows[i][1]} for i in range(len(rows))]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


t0 = time.time()
train_ds, eval_ds = EncodedDataset(train_rows), EncodedDataset(eval_rows)
lengths = [sum(x["attention_mask"]) for x in train_ds.items]
print(f"tokenized {len(train_ds)} train / {len(eval_ds)} eval in {time.time() - t0:.1f}s; "
      f"tokens per message: mean {np.mean(lengths):.1f}, max {max(lengths)}")

config = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=512, max_position_embeddings=512, num_labels=len(LABELS))
model = BertForSequenceClassification(config)


def compute_metrics(p):
    return {"accuracy": float((p.predictions.argmax(-1) == p.label_ids).mean())}


args = TrainingArguments(output_dir="out_intent", per_device_train_batch_size=32, per_device_eval_batch_size=64,
                         num_train_epochs=1, learning_rate=1e-3, warmup_steps=0.1, eval_strategy="epoch",
                         save_strategy="no", logging_steps=20, report_to=[], use_cpu=True,
                         dataloader_num_workers=0, disable_tqdm=True)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  compute_metrics=compute_metrics)
result = trainer.train()
print(f"train_runtime {result.metrics['train_runtime']:.1f}s  "
      f"samples/s {result.metrics['train_samples_per_second']:.1f}")
print(trainer.evaluate())
