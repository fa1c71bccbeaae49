import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

set_seed(0)
random.seed(0)

TOPICS = {
    0: "match goal team coach season league striker injury",
    1: "stock market shares profit earnings investor bank rates",
    2: "election vote senate policy minister campaign party law",
}
FILL = "the a on in after and with new report says today week of".split()


def make_example():
    label = random.randint(0, 2)
    words = random.choices(FILL, k=random.randint(6, 20)) + random.choices(TOPICS[label].split(), k=3)
    random.shuffle(words)
    return " ".join(words), label


train_raw = [make_example() for _ in range(2400)]
eval_raw = [make_example() for _ in range(600)]

tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
tok.normalizer = normalizers.Lowercase()
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.train_from_iterator((t for t, _ in train_raw),
                        trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tok.post_processor = processors.TemplateProcessing(
    single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]")


class NewsDataset(Dataset):
    def __init__(self, rows):
        self.enc = [tokenizer(t, truncation=True, max_length=64) for t, _ in rows]
        self.labels = [y for _, y in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = dict(self.enc[i])
        item["labels"] = self.labels[i]
        return item


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = np.argmax(logits, axis=-1)
    acc = float((preds == labels).mean())
    f1s = []
    for c in range(3):
        tp = np.sum((preds == c) & (labels == c))
        fp = np.sum((preds == c) & (labels != c))
        fn = np.sum((preds != c) & (labels == c))
        f1s.append(2 * tp / max(2 * tp + fp + fn, 1))
    return {"acc": acc, "macro_f1": float(np.mean(f1s))}


config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2,
                    num_attention_heads=2, intermediate_size=128, num_labels=3)
model = BertForSequenceClassification(config)

args = TrainingArguments(
    output_dir="out/news-bert",
    num_train_epochs=3,
    per_device_train_batch_size=32,
    per_device_eval_batch_size=64,
    learning_rate=1e-3,
    warmup_steps=20,
    eval_strategy="epoch",
    save_strategy="epoch",
    save_total_limit=2,
    load_best_model_at_end=True,
    metric_for_best_model="accuracy",
    logging_steps=25,
    report_to="none",
    use_cpu=True,
    disable_tqdm=True,
)

trainer = Trainer(
    model=model,
    args=args,
    train_dataset=NewsDataset(train_raw),
    eval_dataset=NewsDataset(eval_raw),
    data_collator=DataCollatorWithPadding(tokenizer),
    compute_metrics=compute_metrics,
)
trainer.train()
print(trainer.evaluate())
