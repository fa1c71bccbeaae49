# Fine-tuning setup: evaluate once per epoch, checkpoint every 500 steps, keep the best model.
import torch
from transformers import TrainingArguments, Trainer, BertConfig, BertForSequenceClassification

import transformers
print("torch", torch.__version__, "transformers", transformers.__version__, flush=True)
config = BertConfig(vocab_size=1000, hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                    intermediate_size=128, num_labels=2)
model = BertForSequenceClassification(config)

args = TrainingArguments(
    output_dir="out",
    per_device_train_batch_size=16,
    num_train_epochs=3,
    learning_rate=2e-5,
    eval_strategy="epoch",
    save_strategy="steps",
    save_steps=500,
    load_best_model_at_end=True,
    metric_for_best_model="eval_loss",
    report_to="none",
    use_cpu=True,
)
print("args ok", flush=True)
