import random
import torch
from torch.utils.data import Dataset
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments

random.seed(0)
torch.manual_seed(0)

POS = ["great", "excellent", "loved", "fantastic", "wonderful", "superb", "enjoyed"]
NEG = ["awful", "terrible", "hated", "boring", "bad", "worst", "dull"]
FILL = ["the", "movie", "was", "plot", "acting", "and", "really", "a", "film", "it", "story", "very"]


def make_review(label):
    words = random.choices(FILL, k=random.randint(4, 10))
    words += random.choices(POS if label == 1 else NEG, k=random.randint(1, 3))
    random.shuffle(words)
    return " ".join(words)


class ReviewDataset(Dataset):
    def __init__(self, n):
        self.rows = []
        for _ in range(n):
            y = random.randint(0, 1)
            self.rows.append({"text": make_review(y), "label": y})

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


VOCAB = {"[PAD]": 0, "[CLS]": 1, "[SEP]": 2, "[UNK]": 3}
for w in POS + NEG + FILL:
    VOCAB.setdefault(w, len(VOCAB))


class ReviewCollator:
    """Tokenises on the fly so we can change max_len without re-processing the data."""

    def __init__(self, vocab, max_len=32):
        self.vocab = vocab
        self.max_len = max_len

    def __call__(self, features):
        ids = []
        for f in features:
            toks = [self.vocab.get(w, self.vocab["[UNK]"]) for w in f["text"].lower().split()]
            ids.append([self.vocab["[CLS]"]] + toks[: self.max_len - 2] + [self.vocab["[SEP]"]])
        width = max(len(x) for x in ids)
        input_ids = torch.zeros(len(ids), width, dtype=torch.long)
        attention_mask = torch.zeros(len(ids), width, dtype=torch.long)
        for i, x in enumerate(ids):
            input_ids[i, : len(x)] = torch.tensor(x)
            attention_mask[i, : len(x)] = 1
        labels = torch.tensor([f["label"] for f in features])
        return {"input_ids": input_ids, "attention_mask": attention_mask, "labels": labels}


def main():
    train_ds = ReviewDataset(512)
    eval_ds = ReviewDataset(128)
    print(f"train={len(train_ds)} eval={len(eval_ds)} vocab={len(VOCAB)}")

    config = BertConfig(
        vocab_size=len(VOCAB), hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=128, max_position_embeddings=64, num_labels=2,
    )
    model = BertForSequenceClassification(config)

    args = TrainingArguments(
        output_dir="./out/review-bert-tiny",
        per_device_train_batch_size=32,
        per_device_eval_batch_size=64,
        num_train_epochs=3,
        learning_rate=5e-4,
        eval_strategy="epoch",
        save_strategy="no",
        logging_steps=5,
        report_to=[],
        use_cpu=True,
    )
    trainer = Trainer(
        model=model,
        args=args,
        train_dataset=train_ds,
        eval_dataset=eval_ds,
        data_collator=ReviewCollator(VOCAB),
    )
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
