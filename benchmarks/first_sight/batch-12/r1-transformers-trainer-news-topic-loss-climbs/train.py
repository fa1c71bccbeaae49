"""News topic classifier: small BERT trained with the HF Trainer.

The optimizer is RMSprop (carried over from our old Keras model, which trained
more stably than Adam on this data); everything else follows the Trainer docs.
"""
import random
import numpy as np
import torch
from torch.utils.data import Dataset
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments, DataCollatorWithPadding)

random.seed(0); np.random.seed(0); torch.manual_seed(0)

TOPICS = {
    "sports": "match goal league coach striker season injury transfer stadium referee",
    "business": "shares profit market investors quarter merger revenue bank inflation startup",
    "tech": "software chip smartphone update startup cloud security data app launch",
    "health": "vaccine hospital patients study doctors virus treatment diet clinic trial",
}
COMMON = "the a of in on and to said new year after week report city government people".split()
LABELS = list(TOPICS)


def headline(label):
    words = random.sample(TOPICS[label].split(), 3) + random.sample(COMMON, 6)
    # a little topic leakage to make it not trivial
    other = random.choice(LABELS)
    words += random.sample(TOPICS[other].split(), 2)
    random.shuffle(words)
    return " ".join(words)


rows = [(headline(l), i) for i, l in enumerate(LABELS) for _ in range(500)]
random.shuffle(rows)
train_rows, val_rows = rows[:1600], rows[1600:]

tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.train_from_iterator([t for t, _ in rows], trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]")


class Headlines(Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        enc = tokenizer(text, truncation=True, max_length=32)
        enc["labels"] = label
        return enc


config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=128, max_position_embeddings=64, num_labels=len(LABELS),
                    pad_token_id=tokenizer.pad_token_id)
model = BertForSequenceClassification(config)


def compute_metrics(p):
    return {"accuracy": float((p.predictions.argmax(-1) == p.label_ids).mean())}


args = TrainingArguments(output_dir="out", learning_rate=5e-4, weight_decay=0.01, warmup_steps=20,
                         per_device_train_batch_size=32, per_device_eval_batch_size=128, num_train_epochs=3,
                         logging_steps=10, eval_strategy="epoch", save_strategy="no", report_to=[],
                         use_cpu=True, seed=0, disable_tqdm=True)
optimizer = torch.optim.RMSprop(model.parameters(), weight_decay=args.weight_decay)
trainer = Trainer(model=model, args=args, train_dataset=Headlines(train_rows), eval_dataset=Headlines(val_rows),
                  data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics,
                  optimizers=(optimizer, None))
trainer.train()
