"""Intent classification with a small BERT and the HF Trainer. The dataset keeps raw
text so we can swap tokenizers; texts are tokenized on the fly in the collator (dynamic padding)."""
import random

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast, Trainer,
                          TrainingArguments, set_seed)

set_seed(0)
random.seed(0)
torch.set_num_threads(1)

INTENTS = {
    "book_flight": ["book", "flight", "fly", "ticket", "airport", "plane"],
    "weather": ["weather", "rain", "sunny", "forecast", "temperature", "cold"],
    "play_music": ["play", "song", "music", "album", "playlist", "artist"],
    "set_alarm": ["alarm", "wake", "morning", "remind", "timer", "clock"],
}
LABELS = sorted(INTENTS)
FILLER = ["please", "can", "you", "i", "want", "to", "the", "for", "me", "tomorrow", "a", "now", "what", "is"]


def utterance():
    label = random.randrange(len(LABELS))
    words = random.choices(FILLER, k=random.randint(3, 8)) + random.sample(INTENTS[LABELS[label]], 2)
    random.shuffle(words)
    return {"text": " ".join(words), "label": label}


class IntentDataset(torch.utils.data.Dataset):
    def __init__(self, n):
        self.rows = [utterance() for _ in range(n)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


train_ds, eval_ds = IntentDataset(3000), IntentDataset(400)

wp = Tokenizer(models.WordPiece(unk_token="[UNK]"))
wp.normalizer = normalizers.BertNormalizer(lowercase=True)
wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
wp.train_from_iterator([r["text"] for r in train_ds.rows],
                       trainers.WordPieceTrainer(vocab_size=300, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wp, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]")


class TokenizeCollator:
    def __init__(self, tokenizer, max_length=32):
        self.tokenizer = tokenizer
        self.max_length = max_length

    def __call__(self, features):
        texts = [f["text"].strip().lower() for f in features]
        batch = self.tokenizer(texts, padding=True, truncation=True, max_length=self.max_length, return_tensors="pt")
        batch["labels"] = torch.tensor([f["label"] for f in features])
        return batch


def compute_metrics(p):
    return {"accuracy": float((np.argmax(p.predictions, -1) == p.label_ids).mean())}


config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                    intermediate_size=128, max_position_embeddings=64, num_labels=len(LABELS),
                    id2label=dict(enumerate(LABELS)), label2id={l: i for i, l in enumerate(LABELS)})
model = BertForSequenceClassification(config)

args = TrainingArguments(output_dir="runs/intent-bert", per_device_train_batch_size=32, per_device_eval_batch_size=64,
                         num_train_epochs=3, learning_rate=1e-3, warmup_steps=20, eval_strategy="epoch",
                         logging_steps=25, save_strategy="no", report_to="none", use_cpu=True, disable_tqdm=True)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  data_collator=TokenizeCollator(tokenizer), compute_metrics=compute_metrics)
trainer.train()
print(trainer.evaluate())
