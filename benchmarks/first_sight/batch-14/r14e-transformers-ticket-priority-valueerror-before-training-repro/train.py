"""Fine-tune a 12-layer BERT-style encoder on support-ticket priority with layer-wise LR decay."""
import random
import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments, get_linear_schedule_with_warmup)

PRIORITIES = ["low", "normal", "high", "urgent"]
BASE_LR = 5e-4
LAYER_DECAY = 0.85
WEIGHT_DECAY = 0.01
EPOCHS = 2
BATCH_SIZE = 32

WORDS = {
    0: "question how where can please docs help thanks wondering info".split(),
    1: "issue error page login slow settings update account invoice export".split(),
    2: "broken failing customers blocked payment outage team production deadline cannot".split(),
    3: "down everything critical data loss security breach immediately all sites".split(),
}
FILLER = "the a our we is it to on for and with this my you was".split()


def make_tickets(n, seed):
    rng = random.Random(seed)
    texts, labels = [], []
    for _ in range(n):
        y = rng.randrange(4)
        words = [rng.choice(WORDS[y] if rng.random() < 0.35 else FILLER) for _ in range(rng.randint(8, 40))]
        texts.append(" ".join(words))
        labels.append(y)
    return texts, labels


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(
        special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")


class TicketSet(torch.utils.data.Dataset):
    def __init__(self, texts, labels, tokenizer):
        self.enc = tokenizer(texts, truncation=True, max_length=64, padding="max_length")
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: torch.tensor(v[i]) for k, v in self.enc.items()}
        item["labels"] = torch.tensor(self.labels[i])
        return item


def layerwise_param_groups(model, n_layers):
    """Head gets BASE_LR, each encoder layer below gets LAYER_DECAY times the one above."""
    groups = []
    named = list(model.named_parameters())
    head = [p for n, p in named if n.startswith("classifier") or n.startswith("bert.pooler")]
    groups.append({"params": head, "lr": BASE_LR, "weight_decay": WEIGHT_DECAY})
    lr = BASE_LR
    for layer in reversed(range(n_layers)):
        lr *= LAYER_DECAY
        params = [p for n, p in named if f"encoder.layer.{layer}" in n]
        groups.append({"params": params, "lr": lr, "weight_decay": WEIGHT_DECAY})
    emb = [p for n, p in named if "embeddings" in n]
    groups.append({"params": emb, "lr": lr * LAYER_DECAY, "weight_decay": 0.0})
    return groups


def compute_metrics(pred):
    return {"accuracy": float((np.argmax(pred.predictions, -1) == pred.label_ids).mean())}


def main():
    torch.manual_seed(0)
    train_texts, train_labels = make_tickets(3000, seed=1)
    val_texts, val_labels = make_tickets(500, seed=2)
    tokenizer = build_tokenizer(train_texts)
    train_ds = TicketSet(train_texts, train_labels, tokenizer)
    val_ds = TicketSet(val_texts, val_labels, tokenizer)
    print(f"vocab {tokenizer.vocab_size}  train {len(train_ds)}  val {len(val_ds)}")

    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=12,
                        num_attention_heads=4, intermediate_size=128, max_position_embeddings=64,
                        num_labels=len(PRIORITIES), pad_token_id=tokenizer.pad_token_id)
    model = BertForSequenceClassification(config)

    groups = layerwise_param_groups(model, config.num_hidden_layers)
    optimizer = torch.optim.AdamW(groups, lr=BASE_LR)
    steps = EPOCHS * (len(train_ds) // BATCH_SIZE + 1)
    scheduler = get_linear_schedule_with_warmup(optimizer, int(0.1 * steps), steps)

    args = TrainingArguments(output_dir="out/ticket-priority", num_train_epochs=EPOCHS,
                             per_device_train_batch_size=BATCH_SIZE, per_device_eval_batch_size=64,
                             eval_strategy="epoch", save_strategy="no", logging_steps=20,
                             report_to=[], seed=0)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=val_ds,
                      optimizers=(optimizer, scheduler), compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate())


if __name__ == "__main__":
    main()
