"""Intent classification with HF Trainer on pre-tokenized synthetic utterances (CPU)."""
import numpy as np
import torch
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification, EarlyStoppingCallback, Trainer,
                          TrainingArguments, set_seed)

set_seed(0)
torch.set_num_threads(2)
NUM_INTENTS, VOCAB, SEQ = 6, 500, 24


class IntentDataset(Dataset):
    """Token ids where each intent has a few trigger tokens sprinkled into random 'context' tokens."""

    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        triggers = np.arange(10, 10 + NUM_INTENTS * 5).reshape(NUM_INTENTS, 5)
        self.labels = rng.integers(0, NUM_INTENTS, n)
        self.ids = rng.integers(100, VOCAB, (n, SEQ))
        for i, y in enumerate(self.labels):
            pos = rng.choice(np.arange(1, SEQ - 1), 3, replace=False)
            self.ids[i, pos] = rng.choice(triggers[y], 3)
        self.ids[:, 0], self.ids[:, -1] = 2, 3  # [CLS] ... [SEP]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": torch.tensor(self.ids[i]), "attention_mask": torch.ones(SEQ, dtype=torch.long),
                "labels": torch.tensor(self.labels[i])}


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = logits.argmax(-1)
    acc = (preds == labels).mean()
    f1s = []
    for c in range(NUM_INTENTS):
        tp = ((preds == c) & (labels == c)).sum()
        denom = (2 * tp + ((preds == c) & (labels != c)).sum() + ((preds != c) & (labels == c)).sum())
        f1s.append(2 * tp / denom if denom else 0.0)
    return {"acc": float(acc), "macro_f1": float(np.mean(f1s))}


config = BertConfig(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                    intermediate_size=128, max_position_embeddings=64, num_labels=NUM_INTENTS)
model = BertForSequenceClassification(config)

args = TrainingArguments(
    output_dir="intent-bert",
    num_train_epochs=2,
    per_device_train_batch_size=32,
    per_device_eval_batch_size=128,
    learning_rate=5e-4,
    warmup_steps=30,
    eval_strategy="steps",
    eval_steps=50,
    save_strategy="steps",
    save_steps=50,
    save_total_limit=2,
    load_best_model_at_end=True,
    metric_for_best_model="accuracy",
    greater_is_better=True,
    logging_steps=25,
    report_to="none",
    use_cpu=True,
    seed=0,
)

trainer = Trainer(
    model=model,
    args=args,
    train_dataset=IntentDataset(4000, 1),
    eval_dataset=IntentDataset(1000, 2),
    compute_metrics=compute_metrics,
    callbacks=[EarlyStoppingCallback(early_stopping_patience=3)],
)
trainer.train()
print(trainer.evaluate())
trainer.save_model("intent-bert/best")
