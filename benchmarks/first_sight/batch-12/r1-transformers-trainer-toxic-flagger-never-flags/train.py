"""Toxic-comment flagger for the community forum (HF Trainer, small BERT from scratch).

Only ~12% of comments are toxic, so the loss is class-weighted.
"""
import random
import numpy as np
import torch
from torch.utils.data import Dataset
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments, DataCollatorWithPadding)

random.seed(0); np.random.seed(0); torch.manual_seed(0)

TOXIC = "idiot stupid shut trash loser pathetic moron garbage clown dumb".split()
MILD = "wrong disagree weird annoying bad boring".split()
NORMAL = ("thanks for the post i think this update is great but the new layout needs work can you share "
          "link guide version problem fixed tried again later works now game server team").split()


def comment(toxic):
    words = random.sample(NORMAL, 8) + random.sample(MILD, 1)
    if toxic:
        words += random.sample(TOXIC, 1)
    elif random.random() < 0.3:
        words += random.sample(MILD, 1)
    random.shuffle(words)
    return " ".join(words)


rows = [(comment(t), int(t)) for t in (random.random() < 0.12 for _ in range(3000))]
train_rows, val_rows = rows[:2400], rows[2400:]

tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.train_from_iterator([t for t, _ in rows], trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]")


class Comments(Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        enc = tokenizer(text, truncation=True, max_length=32)
        enc["labels"] = label
        return enc


counts = np.bincount([y for _, y in train_rows], minlength=2)
class_weights = torch.tensor(counts / counts.sum(), dtype=torch.float32)
print(f"train: {len(train_rows)} comments, toxic share {counts[1] / counts.sum():.3f}")
print(f"class weights: {class_weights.tolist()}")


class WeightedTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        loss = torch.nn.functional.cross_entropy(outputs.logits, labels, weight=class_weights.to(labels.device))
        return (loss, outputs) if return_outputs else loss


def compute_metrics(p):
    pred, y = p.predictions.argmax(-1), p.label_ids
    tp = int(((pred == 1) & (y == 1)).sum()); fp = int(((pred == 1) & (y == 0)).sum()); fn = int(((pred == 0) & (y == 1)).sum())
    return {"accuracy": float((pred == y).mean()), "toxic_recall": tp / max(tp + fn, 1),
            "toxic_f1": 2 * tp / max(2 * tp + fp + fn, 1)}


config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=128, max_position_embeddings=64, num_labels=2, pad_token_id=tokenizer.pad_token_id)
model = BertForSequenceClassification(config)
args = TrainingArguments(output_dir="out", learning_rate=1e-3, warmup_steps=20, per_device_train_batch_size=32,
                         per_device_eval_batch_size=128, num_train_epochs=3, logging_steps=25, eval_strategy="epoch",
                         save_strategy="no", report_to=[], use_cpu=True, seed=0, disable_tqdm=True)
trainer = WeightedTrainer(model=model, args=args, train_dataset=Comments(train_rows), eval_dataset=Comments(val_rows),
                          data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
trainer.train()
