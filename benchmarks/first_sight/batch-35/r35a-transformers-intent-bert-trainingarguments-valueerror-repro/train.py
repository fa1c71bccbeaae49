"""Intent classifier for the in-app assistant: small BERT trained from scratch with the HF Trainer.
Evaluates twice per epoch and keeps the best checkpoint."""
import math
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

INTENTS = ["track_order", "cancel_order", "change_address", "refund_status", "talk_to_agent", "store_hours"]
TEMPLATES = {
    "track_order": ["where is my {x}", "track my {x} please", "has my {x} shipped yet", "status of {x} delivery"],
    "cancel_order": ["cancel my {x}", "i want to cancel the {x}", "stop my {x} order", "please cancel {x} now"],
    "change_address": ["change delivery address for {x}", "ship my {x} to a new address", "wrong address on {x}"],
    "refund_status": ["where is my refund for {x}", "refund for the {x} not received", "when do i get money back for {x}"],
    "talk_to_agent": ["i need a human about {x}", "connect me to an agent re {x}", "talk to support about {x}"],
    "store_hours": ["when does the store open", "opening hours on sunday", "is the shop open today {x}"],
}
ITEMS = ["order", "parcel", "shoes", "jacket", "laptop", "groceries", "package", "phone", "sofa", "book"]
BATCH = 32
EPOCHS = 3


def make_examples(n, seed):
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        k = rnd.randrange(len(INTENTS))
        text = rnd.choice(TEMPLATES[INTENTS[k]]).format(x=rnd.choice(ITEMS))
        out.append((text, k))
    return out


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]",
                                   cls_token="[CLS]", sep_token="[SEP]", model_max_length=32)


class IntentDataset(torch.utils.data.Dataset):
    def __init__(self, examples, tokenizer):
        self.enc = [tokenizer(t, truncation=True) for t, _ in examples]
        self.labels = [y for _, y in examples]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {**self.enc[i], "labels": self.labels[i]}


def compute_metrics(p):
    preds = np.argmax(p.predictions, axis=-1)
    return {"accuracy": float((preds == p.label_ids).mean())}


def main():
    torch.manual_seed(0)
    train_ex, val_ex = make_examples(7600, 0), make_examples(800, 1)
    tokenizer = build_tokenizer([t for t, _ in train_ex])
    train_ds, val_ds = IntentDataset(train_ex, tokenizer), IntentDataset(val_ex, tokenizer)

    config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=128, max_position_embeddings=64, num_labels=len(INTENTS),
                        pad_token_id=tokenizer.pad_token_id)
    model = BertForSequenceClassification(config)

    steps_per_epoch = math.ceil(len(train_ds) / BATCH)
    print(f"{len(train_ds)} train / {len(val_ds)} val examples, {steps_per_epoch} steps per epoch")
    args = TrainingArguments(
        output_dir="out/intent-bert",
        per_device_train_batch_size=BATCH,
        per_device_eval_batch_size=128,
        num_train_epochs=EPOCHS,
        learning_rate=5e-4,
        warmup_steps=50,
        eval_strategy="steps",
        eval_steps=steps_per_epoch // 2,
        logging_steps=50,
        load_best_model_at_end=True,
        metric_for_best_model="accuracy",
        save_total_limit=2,
        report_to=[],
        use_cpu=True,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                      data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
    trainer.train()
    print("final:", trainer.evaluate())
    trainer.save_model("out/intent-bert/best")


if __name__ == "__main__":
    main()
