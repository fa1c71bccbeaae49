import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          EarlyStoppingCallback, PreTrainedTokenizerFast, Trainer, TrainingArguments)

random.seed(42)
TOPICS = {
    0: "goal match striker league coach season score team",
    1: "election minister parliament vote policy campaign senate",
    2: "startup revenue shares market investors quarter profit",
    3: "galaxy telescope orbit planet nasa rocket astronaut",
}
GLUE = "the a of in on and to was has for with this that new after report says".split()


def make_headline():
    label = random.randrange(4)
    words = random.choices(GLUE, k=random.randint(5, 14))
    for _ in range(random.randint(2, 4)):
        words.insert(random.randrange(len(words)), random.choice(TOPICS[label].split()))
    return " ".join(words), label


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(
        special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")


class NewsDataset(torch.utils.data.Dataset):
    def __init__(self, rows, tokenizer):
        self.encodings = tokenizer([t for t, _ in rows], truncation=True, max_length=48)
        self.labels = [l for _, l in rows]

    def __getitem__(self, idx):
        item = {k: torch.tensor(v[idx]) for k, v in self.encodings.items()}
        item["labels"] = torch.tensor(self.labels[idx])
        return item

    def __len__(self):
        return len(self.labels)


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    return {"accuracy": (np.argmax(logits, axis=-1) == labels).mean()}


def main():
    train_rows = [make_headline() for _ in range(4000)]
    val_rows = [make_headline() for _ in range(400)]
    tokenizer = build_tokenizer([t for t, _ in train_rows])

    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=128, num_hidden_layers=2,
                        num_attention_heads=4, intermediate_size=256, max_position_embeddings=64,
                        num_labels=4)
    model = BertForSequenceClassification(config)

    training_args = TrainingArguments(
        output_dir="./results/news-bert",
        num_train_epochs=4,
        per_device_train_batch_size=32,
        per_device_eval_batch_size=64,
        learning_rate=3e-4,
        warmup_steps=50,
        weight_decay=0.01,
        logging_steps=50,
        eval_strategy="epoch",
        save_strategy="epoch",
        save_total_limit=1,
        load_best_model_at_end=True,
        metric_for_best_model="accuracy",
        report_to="none",
    )

    trainer = Trainer(
        model=model,
        args=training_args,
        train_dataset=NewsDataset(train_rows, tokenizer),
        eval_dataset=NewsDataset(val_rows, tokenizer),
        tokenizer=tokenizer,
        data_collator=DataCollatorWithPadding(tokenizer=tokenizer),
        compute_metrics=compute_metrics,
        callbacks=[EarlyStoppingCallback(early_stopping_patience=2)],
    )
    trainer.train()
    print(trainer.evaluate())
    trainer.save_model("./results/news-bert/best")


if __name__ == "__main__":
    main()
