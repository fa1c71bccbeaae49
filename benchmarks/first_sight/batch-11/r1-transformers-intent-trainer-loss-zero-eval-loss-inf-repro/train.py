"""Multi-app intent classifier: one shared small BERT, 12 intents, but each app (banking,
travel, food) only supports 4 of them, so the head masks out the intents that are invalid for
the app the message came from."""
import random

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset
from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
from transformers import (BertConfig, BertModel, DataCollatorWithPadding, PreTrainedTokenizerFast, Trainer,
                          TrainingArguments, set_seed)
from transformers.modeling_outputs import SequenceClassifierOutput

set_seed(0)
random.seed(0)

APPS = ["banking", "travel", "food"]
INTENTS = {
    "banking": {"check_balance": ["what is my balance", "how much money do i have"],
                "transfer": ["send money to my sister", "transfer 50 to savings"],
                "card_lost": ["i lost my card", "block my debit card"],
                "loan_info": ["what are your loan rates", "can i get a loan"]},
    "travel": {"book_flight": ["book a flight to rome", "i need a plane ticket"],
               "cancel_trip": ["cancel my trip", "i want to cancel the booking"],
               "baggage": ["how many bags can i take", "my luggage is missing"],
               "hotel": ["find me a hotel", "book a room for two nights"]},
    "food": {"order": ["i want to order a pizza", "get me some sushi"],
             "track_order": ["where is my food", "how long until delivery"],
             "refund": ["my order was wrong give me a refund", "i want my money back"],
             "menu": ["what is on the menu", "do you have vegan options"]},
}
INTENT_NAMES = [name for app in APPS for name in INTENTS[app]]
VALID = torch.zeros(len(APPS), len(INTENT_NAMES), dtype=torch.bool)
for a, app in enumerate(APPS):
    for name in INTENTS[app]:
        VALID[a, INTENT_NAMES.index(name)] = True
FILLER = ["please", "hey", "hi", "thanks", "quickly", "now", "today", "asap"]


def make_examples(n, seed):
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        a = rng.randrange(len(APPS))
        name = rng.choice(list(INTENTS[APPS[a]]))
        words = rng.choice(INTENTS[APPS[a]][name]).split() + rng.sample(FILLER, 2)
        rng.shuffle(words)
        rows.append((" ".join(words), a, INTENT_NAMES.index(name)))
    return rows


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]",
                                                       special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


class IntentDataset(Dataset):
    def __init__(self, rows, tokenizer):
        self.enc = tokenizer([t for t, _, _ in rows], truncation=True, max_length=32)
        self.app = [a for _, a, _ in rows]
        self.labels = [y for _, _, y in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.enc["input_ids"][i], "attention_mask": self.enc["attention_mask"][i],
                "app_id": self.app[i], "labels": self.labels[i]}


class AppMaskedIntentModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.bert = BertModel(config, add_pooling_layer=False)
        self.head = nn.Linear(config.hidden_size, len(INTENT_NAMES))
        self.register_buffer("valid", VALID.clone())

    def forward(self, input_ids, attention_mask, app_id, labels=None):
        h = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state[:, 0]
        logits = self.head(h)
        # an app can never produce another app's intents
        logits = logits.masked_fill(~self.valid[app_id], float("-inf"))
        loss = nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return SequenceClassifierOutput(loss=loss, logits=logits)


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    return {"accuracy": float((np.argmax(logits, -1) == labels).mean())}


def main():
    train_rows, val_rows = make_examples(2000, seed=1), make_examples(400, seed=2)
    tokenizer = build_tokenizer([t for t, _, _ in train_rows])
    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=128, max_position_embeddings=64)
    model = AppMaskedIntentModel(config)
    args = TrainingArguments(output_dir="intent-multiapp", num_train_epochs=3, per_device_train_batch_size=32,
                             per_device_eval_batch_size=128, learning_rate=1e-3, label_smoothing_factor=0.1,
                             eval_strategy="epoch", save_strategy="no", logging_steps=20, report_to="none",
                             disable_tqdm=True, remove_unused_columns=False)
    trainer = Trainer(model=model, args=args, train_dataset=IntentDataset(train_rows, tokenizer),
                      eval_dataset=IntentDataset(val_rows, tokenizer), data_collator=DataCollatorWithPadding(tokenizer),
                      compute_metrics=compute_metrics)
    trainer.train()


if __name__ == "__main__":
    main()
