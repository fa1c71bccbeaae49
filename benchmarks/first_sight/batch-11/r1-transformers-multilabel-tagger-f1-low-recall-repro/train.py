"""Multi-label tagging of customer feedback (a message can mention several topics)."""
import random

import numpy as np
import torch
from torch.utils.data import Dataset
from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

set_seed(0)
random.seed(0)

TOPICS = ["shipping", "billing", "app", "quality", "support", "pricing"]
PHRASES = {
    "shipping": ["the parcel came late", "delivery took ages", "courier lost the box", "tracking never updated"],
    "billing": ["I was charged twice", "the invoice is wrong", "refund still missing", "card payment failed"],
    "app": ["the app crashes", "login screen freezes", "update broke the app", "notifications do not work"],
    "quality": ["the fabric tore quickly", "product arrived broken", "colour faded after washing", "zipper broke"],
    "support": ["nobody answered my email", "the agent was rude", "chat kept disconnecting", "waited an hour on hold"],
    "pricing": ["too expensive now", "prices went up again", "cheaper elsewhere", "discount was not applied"],
}
FILLER = ["hello", "hi team", "honestly", "also", "and", "anyway", "thanks", "regards", "well", "so"]


def make_examples(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        k = rng.choices([1, 2, 3], weights=[0.4, 0.4, 0.2])[0]
        topics = rng.sample(range(len(TOPICS)), k)
        parts = [rng.choice(PHRASES[TOPICS[t]]) for t in topics] + rng.sample(FILLER, 3)
        rng.shuffle(parts)
        y = [0.0] * len(TOPICS)
        for t in topics:
            y[t] = 1.0
        out.append((" ".join(parts), y))
    return out


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]",
                                                       special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


class FeedbackDataset(Dataset):
    def __init__(self, examples, tokenizer):
        self.enc = tokenizer([t for t, _ in examples], truncation=True, max_length=64)
        self.labels = [y for _, y in examples]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: v[i] for k, v in self.enc.items()}
        item["labels"] = self.labels[i]
        return item


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    probs = torch.softmax(torch.tensor(logits), dim=-1).numpy()
    preds = (probs > 0.5).astype(int)
    labels = labels.astype(int)
    tp = (preds & labels).sum()
    precision = tp / max(preds.sum(), 1)
    recall = tp / max(labels.sum(), 1)
    f1 = 2 * precision * recall / max(precision + recall, 1e-8)
    return {"micro_f1": f1, "precision": precision, "recall": recall,
            "exact_match": (preds == labels).all(1).mean(),
            "empty_predictions": (preds.sum(1) == 0).mean()}


def main():
    train_ex, val_ex = make_examples(1600, seed=1), make_examples(400, seed=2)
    tokenizer = build_tokenizer([t for t, _ in train_ex])
    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2,
                        num_attention_heads=4, intermediate_size=128, max_position_embeddings=64,
                        num_labels=len(TOPICS), problem_type="multi_label_classification",
                        id2label=dict(enumerate(TOPICS)), label2id={t: i for i, t in enumerate(TOPICS)})
    model = BertForSequenceClassification(config)

    args = TrainingArguments(output_dir="feedback-tagger", num_train_epochs=4, per_device_train_batch_size=32,
                             per_device_eval_batch_size=128, learning_rate=4e-3, warmup_steps=10,
                             eval_strategy="epoch", save_strategy="no", logging_steps=25,
                             report_to="none", disable_tqdm=True, seed=0)
    trainer = Trainer(model=model, args=args, train_dataset=FeedbackDataset(train_ex, tokenizer),
                      eval_dataset=FeedbackDataset(val_ex, tokenizer),
                      data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
    trainer.train()


if __name__ == "__main__":
    main()
