"""Intent classifier for a banking chatbot. The intents are very imbalanced, so we
train with a class-weighted cross-entropy (custom Trainer.compute_loss)."""
import random

import numpy as np
import torch
import torch.nn as nn
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

set_seed(0)
random.seed(0)

INTENTS = ["balance", "transfer", "lost_card", "complaint"]
FREQ = [0.55, 0.30, 0.10, 0.05]
KEYWORDS = {
    "balance": "balance how much money left account check".split(),
    "transfer": "send transfer pay friend iban wire".split(),
    "lost_card": "lost stolen card block freeze missing".split(),
    "complaint": "angry terrible service complaint manager unacceptable".split(),
}
FILLER = "hi hello please can you i want to my the a now today".split()


def make_split(n):
    texts, labels = [], []
    for _ in range(n):
        k = random.choices(range(len(INTENTS)), weights=FREQ)[0]
        words = random.sample(FILLER, 4) + random.sample(KEYWORDS[INTENTS[k]], 3)
        random.shuffle(words)
        texts.append(" ".join(words))
        labels.append(k)
    return texts, labels


train_texts, train_labels = make_split(1000)
val_texts, val_labels = make_split(200)

raw_tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
raw_tok.pre_tokenizer = pre_tokenizers.Whitespace()
raw_tok.train_from_iterator(
    train_texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=raw_tok, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]")


class IntentDataset(torch.utils.data.Dataset):
    def __init__(self, texts, labels):
        self.enc = tokenizer(texts, truncation=True, max_length=32)
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: v[i] for k, v in self.enc.items()}
        item["labels"] = self.labels[i]
        return item


counts = np.bincount(train_labels, minlength=len(INTENTS))
class_weights = counts.sum() / (len(INTENTS) * counts)
print("intent counts:", dict(zip(INTENTS, counts.tolist())))
print("class weights:", np.round(class_weights, 3))

config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2,
                    num_attention_heads=2, intermediate_size=128, max_position_embeddings=64,
                    num_labels=len(INTENTS),
                    id2label=dict(enumerate(INTENTS)),
                    label2id={n: i for i, n in enumerate(INTENTS)})
model = BertForSequenceClassification(config)
# keep the weights with the model so the serving code can reuse them
model.config.class_weights = class_weights


class WeightedTrainer(Trainer):
    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        labels = inputs.pop("labels")
        outputs = model(**inputs)
        w = torch.as_tensor(model.config.class_weights, dtype=torch.float32,
                            device=outputs.logits.device)
        loss = nn.functional.cross_entropy(outputs.logits, labels, weight=w)
        return (loss, outputs) if return_outputs else loss


def compute_metrics(p):
    preds = p.predictions.argmax(-1)
    recalls = [float((preds[p.label_ids == k] == k).mean()) for k in range(len(INTENTS))]
    return {"accuracy": float((preds == p.label_ids).mean()), "macro_recall": float(np.mean(recalls))}


args = TrainingArguments(
    output_dir="out/intent-bert",
    num_train_epochs=3,
    per_device_train_batch_size=32,
    per_device_eval_batch_size=64,
    learning_rate=5e-4,
    eval_strategy="steps",
    eval_steps=32,
    save_strategy="steps",
    save_steps=32,
    logging_steps=8,
    report_to=[],
    use_cpu=True,
    disable_tqdm=True,
)
trainer = WeightedTrainer(model=model, args=args,
                          train_dataset=IntentDataset(train_texts, train_labels),
                          eval_dataset=IntentDataset(val_texts, val_labels),
                          data_collator=DataCollatorWithPadding(tokenizer),
                          compute_metrics=compute_metrics)
trainer.train()
trainer.save_model("out/intent-bert/final")
