"""Binary spam filter for support inbox subject lines: small DistilBERT + HF Trainer."""
import random

import numpy as np
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (
    DataCollatorWithPadding,
    DistilBertConfig,
    DistilBertForSequenceClassification,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
    set_seed,
)

set_seed(5)
rng = random.Random(5)
SPAM = ["winner", "free", "prize", "crypto", "click", "urgent", "offer", "bonus", "casino", "claim"]
HAM = ["invoice", "meeting", "ticket", "password", "delivery", "refund", "update", "schedule", "login", "report"]
FILL = ["re", "your", "the", "for", "now", "today", "account", "about", "new", "please", "fw", "a", "our"]


def make(n):
    rows = []
    for _ in range(n):
        label = int(rng.random() < 0.45)
        words = [rng.choice(FILL) for _ in range(rng.randint(3, 9))]
        for _ in range(rng.randint(1, 2)):
            words.insert(rng.randrange(len(words) + 1), rng.choice(SPAM if label else HAM))
        rows.append({"text": " ".join(words), "label": label})
    return rows


train_rows, eval_rows = make(3000), make(600)
print("spam rate train/eval:", np.mean([r["label"] for r in train_rows]).round(3),
      np.mean([r["label"] for r in eval_rows]).round(3))

wp = Tokenizer(models.WordPiece(unk_token="[UNK]"))
wp.normalizer = normalizers.BertNormalizer(lowercase=True)
wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
wp.train_from_iterator((r["text"] for r in train_rows), trainers.WordPieceTrainer(
    vocab_size=200, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
wp.post_processor = processors.BertProcessing(("[SEP]", wp.token_to_id("[SEP]")), ("[CLS]", wp.token_to_id("[CLS]")))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wp, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                                    sep_token="[SEP]", mask_token="[MASK]", model_max_length=32)


def encode(rows):
    out = []
    for r in rows:
        enc = dict(tokenizer(r["text"], truncation=True))
        enc["labels"] = r["label"]
        out.append(enc)
    return out


config = DistilBertConfig(vocab_size=len(tokenizer), dim=64, n_layers=2, n_heads=2, hidden_dim=128,
                          max_position_embeddings=32, num_labels=1,
                          id2label={0: "spam"}, label2id={"spam": 0})
model = DistilBertForSequenceClassification(config)


def compute_metrics(p):
    preds = np.argmax(p.predictions, axis=-1)
    labels = p.label_ids
    tp = np.sum((preds == 1) & (labels == 1))
    precision = tp / max(np.sum(preds == 1), 1)
    recall = tp / max(np.sum(labels == 1), 1)
    return {"accuracy": float(np.mean(preds == labels)), "precision": float(precision), "recall": float(recall)}


args = TrainingArguments(
    output_dir="spam-ckpt",
    per_device_train_batch_size=32,
    per_device_eval_batch_size=128,
    num_train_epochs=3,
    learning_rate=1e-3,
    warmup_steps=20,
    eval_strategy="epoch",
    save_strategy="no",
    logging_steps=25,
    report_to="none",
    use_cpu=True,
    disable_tqdm=True,
)
trainer = Trainer(model=model, args=args, train_dataset=encode(train_rows), eval_dataset=encode(eval_rows),
                  data_collator=DataCollatorWithPadding(tokenizer), compute_metrics=compute_metrics)
trainer.train()
print(trainer.evaluate())
