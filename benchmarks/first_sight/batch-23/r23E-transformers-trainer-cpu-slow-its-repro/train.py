"""Intent classification for support tickets: small BERT from config + HF Trainer on CPU.

Short timing run (max_steps) to estimate how long the full 3-epoch job will take on the CPU box.
"""
import random
import time

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (
    BertConfig,
    BertForSequenceClassification,
    PreTrainedTokenizerFast,
    Trainer,
    TrainerCallback,
    TrainingArguments,
    set_seed,
)

set_seed(1)
rng = random.Random(1)

INTENTS = {
    "refund": ["refund", "money back", "charged twice", "return"],
    "login": ["password", "login", "locked out", "two factor"],
    "shipping": ["delivery", "tracking", "package", "courier"],
    "cancel": ["cancel", "unsubscribe", "close account", "stop plan"],
}
NAMES = list(INTENTS)
FILLER = ("hi team i have a problem with my order from last week and would like some help please "
          "thanks in advance it is urgent because i need it for work").split()


def ticket():
    y = rng.randrange(len(NAMES))
    words = rng.sample(FILLER, rng.randint(6, 18))
    words.insert(rng.randint(0, len(words)), rng.choice(INTENTS[NAMES[y]]))
    return " ".join(words), y


data = [ticket() for _ in range(3000)]

wp = Tokenizer(models.WordPiece(unk_token="[UNK]"))
wp.normalizer = normalizers.BertNormalizer(lowercase=True)
wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
wp.train_from_iterator((t for t, _ in data), trainers.WordPieceTrainer(
    vocab_size=1000, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
wp.post_processor = processors.BertProcessing(("[SEP]", wp.token_to_id("[SEP]")), ("[CLS]", wp.token_to_id("[CLS]")))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wp, model_max_length=512, unk_token="[UNK]",
                                    pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")


class TicketDataset(torch.utils.data.Dataset):
    def __init__(self, rows):
        texts = [t for t, _ in rows]
        self.enc = tokenizer(texts, padding="max_length", truncation=True)
        self.labels = [y for _, y in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: torch.tensor(v[i]) for k, v in self.enc.items()}
        item["labels"] = torch.tensor(self.labels[i])
        return item


train_ds, eval_ds = TicketDataset(data[:2600]), TicketDataset(data[2600:2800])
lengths = [len(tokenizer(t)["input_ids"]) for t, _ in data[:200]]
print(f"train={len(train_ds)} eval={len(eval_ds)}; ticket length mean {np.mean(lengths):.1f} tokens, max {max(lengths)}")


class Throughput(TrainerCallback):
    def on_step_begin(self, args, state, control, **kw):
        if state.global_step == 5:
            self.t0 = time.time()

    def on_step_end(self, args, state, control, **kw):
        if state.global_step > 5 and state.global_step % 10 == 0:
            dt = time.time() - self.t0
            sps = (state.global_step - 5) * args.per_device_train_batch_size / dt
            print(f"step {state.global_step}: {sps:.1f} samples/s, {dt / (state.global_step - 5):.3f} s/step")


config = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=512, num_labels=len(NAMES))
model = BertForSequenceClassification(config)


def accuracy(p):
    return {"accuracy": float((np.argmax(p.predictions, -1) == p.label_ids).mean())}


args = TrainingArguments(
    output_dir="/tmp/s44/batch-23/r23E-transformers-trainer-cpu-slow-its-repro/out",
    per_device_train_batch_size=16,
    per_device_eval_batch_size=64,
    max_steps=40,
    learning_rate=3e-4,
    warmup_steps=10,
    logging_steps=20,
    eval_strategy="no",
    save_strategy="no",
    report_to="none",
    use_cpu=True,
    disable_tqdm=True,
)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  compute_metrics=accuracy, callbacks=[Throughput()])
out = trainer.train()
sps = out.metrics["train_samples_per_second"]
print(f"train_samples_per_second={sps:.1f}")
FULL_DATASET = 120_000  # tickets in the production export
print(f"estimated time for 3 epochs over {FULL_DATASET} tickets: {3 * FULL_DATASET / sps / 3600:.2f} h")
