"""Token classification (slot tagging) for parcel-tracking messages with a small BERT and the HF Trainer."""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (
    BertConfig,
    BertForTokenClassification,
    DataCollatorWithPadding,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
)

random.seed(0)
torch.manual_seed(0)
TAGS = ["O", "B-CARRIER", "B-TRACKING", "B-CITY", "I-CITY"]
CARRIERS = ["dhl", "ups", "fedex", "gls", "dpd"]
CITIES = [["berlin"], ["new", "york"], ["lyon"], ["san", "diego"], ["oslo"], ["rio", "de", "janeiro"]]


def make_example():
    code = "".join(random.choice("ABCDEFGHJK0123456789") for _ in range(random.randint(8, 14)))
    carrier, city = random.choice(CARRIERS), random.choice(CITIES)
    words = ["my", carrier, "parcel", code, "is", "stuck", "in"] + city
    tags = ["O", "B-CARRIER", "O", "B-TRACKING", "O", "O", "O", "B-CITY"] + ["I-CITY"] * (len(city) - 1)
    if random.random() < 0.5:
        words += ["since", "monday", "please", "help"]
        tags += ["O"] * 4
    return words, tags


train_raw = [make_example() for _ in range(2000)]
eval_raw = [make_example() for _ in range(200)]

wp = Tokenizer(models.WordPiece(unk_token="[UNK]"))
wp.normalizer = normalizers.BertNormalizer(lowercase=True)
wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
wp.train_from_iterator([" ".join(w) for w, _ in train_raw],
                       trainers.WordPieceTrainer(vocab_size=300, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
wp.post_processor = processors.TemplateProcessing(
    single="[CLS] $A [SEP]", special_tokens=[("[CLS]", wp.token_to_id("[CLS]")), ("[SEP]", wp.token_to_id("[SEP]"))])
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wp, pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]",
                                    sep_token="[SEP]", mask_token="[MASK]", model_max_length=64)


def encode(words, tags):
    enc = tokenizer(words, is_split_into_words=True, truncation=True)
    labels, prev = [], None
    for wid in enc.word_ids():
        labels.append(-100 if wid is None or wid == prev else TAGS.index(tags[wid]))
        prev = wid
    enc["labels"] = labels
    return enc


class SlotDataset(torch.utils.data.Dataset):
    def __init__(self, raw):
        self.items = [encode(w, t) for w, t in raw]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return dict(self.items[i])


def compute_metrics(p):
    preds = p.predictions.argmax(-1)
    mask = p.label_ids != -100
    return {"token_acc": float((preds[mask] == p.label_ids[mask]).mean())}


config = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=256, max_position_embeddings=64, num_labels=len(TAGS),
                    id2label=dict(enumerate(TAGS)), label2id={t: i for i, t in enumerate(TAGS)})
model = BertForTokenClassification(config)

args = TrainingArguments(output_dir="out_slots", per_device_train_batch_size=32, per_device_eval_batch_size=64,
                         num_train_epochs=3, learning_rate=5e-4, logging_steps=20, eval_strategy="epoch",
                         save_strategy="no", report_to=[], use_cpu=True)
trainer = Trainer(model=model, args=args, train_dataset=SlotDataset(train_raw), eval_dataset=SlotDataset(eval_raw),
                  data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
trainer.train()
print(trainer.evaluate())
