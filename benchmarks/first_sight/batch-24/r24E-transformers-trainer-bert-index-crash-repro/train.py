"""Train a small BERT classifier from scratch on synthetic product reviews with the HF Trainer."""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (
    BertConfig,
    BertForSequenceClassification,
    DataCollatorWithPadding,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
)

rng = random.Random(7)
POS = ["great", "excellent", "love", "perfect", "sturdy", "fast", "recommend", "happy"]
NEG = ["broken", "terrible", "refund", "slow", "cheap", "disappointed", "awful", "returned"]
FILLER = ("the a this product it was arrived box after two days i my and with for "
          "battery screen price quality delivery seller color size works").split()


def review():
    label = rng.randint(0, 1)
    n_sent = rng.choice([1, 2, 3, 3, 4]) if rng.random() > 0.03 else rng.randint(15, 25)
    sents = []
    for _ in range(n_sent):
        words = rng.sample(FILLER, 6) + [rng.choice(POS if label else NEG)]
        if rng.random() < 0.3:
            words.append(rng.choice(NEG if label else POS))
        rng.shuffle(words)
        sents.append(" ".join(words) + ".")
    return {"text": " ".join(sents), "label": label}


raw_train = [review() for _ in range(3000)]
raw_eval = [review() for _ in range(300)]

# WordPiece tokenizer trained on the training texts
tk = Tokenizer(models.WordPiece(unk_token="[UNK]"))
tk.normalizer = normalizers.BertNormalizer(lowercase=True)
tk.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
tk.train_from_iterator((r["text"] for r in raw_train),
                       trainers.WordPieceTrainer(vocab_size=400, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
tk.post_processor = processors.TemplateProcessing(
    single="[CLS] $A [SEP]", special_tokens=[("[CLS]", tk.token_to_id("[CLS]")), ("[SEP]", tk.token_to_id("[SEP]"))])
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tk, unk_token="[UNK]", pad_token="[PAD]",
                                    cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")


def tokenize(rows):
    out = []
    for r in rows:
        enc = tokenizer(r["text"], truncation=True)
        enc["labels"] = r["label"]
        out.append(dict(enc))
    return out


train_ds, eval_ds = tokenize(raw_train), tokenize(raw_eval)
print(f"train={len(train_ds)} eval={len(eval_ds)} vocab={len(tokenizer)}")

config = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=256, max_position_embeddings=128, num_labels=2,
                    pad_token_id=tokenizer.pad_token_id)
model = BertForSequenceClassification(config)


def compute_metrics(p):
    return {"accuracy": float((np.argmax(p.predictions, -1) == p.label_ids).mean())}


args = TrainingArguments(output_dir="out_cls", per_device_train_batch_size=32, per_device_eval_batch_size=64,
                         num_train_epochs=3, learning_rate=5e-4, warmup_steps=30, weight_decay=0.01,
                         eval_strategy="epoch", save_strategy="no", logging_steps=20, report_to=[],
                         use_cpu=True, disable_tqdm=True, seed=7)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  data_collator=DataCollatorWithPadding(tokenizer), processing_class=tokenizer,
                  compute_metrics=compute_metrics)
trainer.train()
print(trainer.evaluate())
