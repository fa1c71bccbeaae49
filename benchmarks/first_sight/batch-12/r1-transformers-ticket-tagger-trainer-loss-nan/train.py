"""Multi-label tagger for support tickets (BERT-mini trained from scratch).

Tags are imbalanced, so we weight positives per tag with pos_weight = neg/pos
like the BCEWithLogitsLoss docs suggest.
"""
import random
import numpy as np
import torch
from torch.utils.data import Dataset
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments, DataCollatorWithPadding)

random.seed(0); np.random.seed(0); torch.manual_seed(0)

TAGS = ["billing", "login", "shipping", "refund", "bug_report", "chargeback_dispute"]
PHRASES = {
    "billing": ["invoice is wrong", "charged twice this month", "update my card"],
    "login": ["cannot log in", "password reset link expired", "two factor code never arrives"],
    "shipping": ["parcel has not arrived", "tracking number does not work", "wrong delivery address"],
    "refund": ["want my money back", "refund still pending", "return label please"],
    "bug_report": ["app crashes on start", "button does nothing", "page shows error 500"],
    "chargeback_dispute": ["my bank opened a dispute", "chargeback filed with card issuer"],
}
FILLER = "hello team please help thanks regards asap urgent again today order account".split()
TAG_FREQ = [0.30, 0.25, 0.30, 0.15, 0.20, 0.0]


def make_ticket(freqs):
    labels = [1.0 if random.random() < f else 0.0 for f in freqs]
    if sum(labels) == 0:
        labels[random.randrange(5)] = 1.0
    parts = []
    for t, l in zip(TAGS, labels):
        if l:
            parts.append(random.choice(PHRASES[t]))
    parts += random.sample(FILLER, 3)
    random.shuffle(parts)
    return " ".join(parts), labels


train_rows = [make_ticket(TAG_FREQ) for _ in range(1200)]
val_rows = [make_ticket([0.30, 0.25, 0.30, 0.15, 0.20, 0.05]) for _ in range(300)]

# ---- tokenizer -------------------------------------------------------------
tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.train_from_iterator([t for t, _ in train_rows + val_rows],
                        trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]")


class TicketDataset(Dataset):
    def __init__(self, rows):
        self.enc = [tokenizer(t, truncation=True, max_length=32) for t, _ in rows]
        self.labels = [l for _, l in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = dict(self.enc[i])
        item["labels"] = self.labels[i]
        return item


pad_collator = DataCollatorWithPadding(tokenizer)


def collate(features):
    labels = torch.tensor([f.pop("labels") for f in features], dtype=torch.float32)
    batch = pad_collator(features)
    batch["labels"] = labels
    return batch


train_ds, val_ds = TicketDataset(train_rows), TicketDataset(val_rows)

Y = torch.tensor([l for _, l in train_rows])
pos = Y.sum(0)
neg = len(Y) - pos
pos_weight = neg / pos
print(f"train tickets: {len(train_ds)}  val tickets: {len(val_ds)}  tags: {len(TAGS)}")

config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2,
                    num_attention_heads=2, intermediate_size=128, max_position_embeddings=64,
                    num_labels=len(TAGS), problem_type="multi_label_classification",
                    pad_token_id=tokenizer.pad_token_id)
model = BertForSequenceClassification(config)


class WeightedTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=pos_weight.to(outputs.logits.device))
        loss = loss_fn(outputs.logits, labels)
        return (loss, outputs) if return_outputs else loss


def compute_metrics(p):
    probs = 1 / (1 + np.exp(-p.predictions))
    preds = (probs > 0.5).astype(float)
    tp = (preds * p.label_ids).sum(0); fp = (preds * (1 - p.label_ids)).sum(0); fn = ((1 - preds) * p.label_ids).sum(0)
    f1 = 2 * tp / np.maximum(2 * tp + fp + fn, 1)
    return {"macro_f1": float(f1.mean())}


args = TrainingArguments(output_dir="out", per_device_train_batch_size=32, per_device_eval_batch_size=64,
                         num_train_epochs=3, learning_rate=1e-3, logging_steps=10, eval_strategy="epoch",
                         save_strategy="no", report_to=[], use_cpu=True, seed=0, disable_tqdm=True)
trainer = WeightedTrainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                          data_collator=collate, compute_metrics=compute_metrics)
trainer.train()
