"""Review sentiment classifier: small BERT, accelerate loop, layer-wise LR decay.

Layer-wise LR decay (LLRD): the classifier gets the full learning rate and
each layer below it gets DECAY times the rate of the layer above.
"""
import random
import time

import torch
from accelerate import Accelerator
from accelerate.utils import set_seed
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from torch.utils.data import DataLoader
from transformers import (BertConfig, BertForSequenceClassification,
                          PreTrainedTokenizerFast, get_linear_schedule_with_warmup)

set_seed(0)
random.seed(0)

LR = 2e-4
DECAY = 0.8
EPOCHS = 3
BATCH = 32
MAX_LEN = 32

POS = "great excellent love perfect recommend fast friendly sturdy comfortable delicious".split()
NEG = "broken terrible refund awful slow rude flimsy late disappointing bland".split()
FILLER = ("the a this it was and but i my order product arrived box item seller "
          "delivery price quality size color again would very really").split()


def make_reviews(n):
    rows = []
    for _ in range(n):
        label = random.randint(0, 1)
        words = random.choices(FILLER, k=random.randint(8, 20))
        cue = POS if label else NEG
        other = NEG if label else POS
        for _ in range(random.randint(1, 3)):
            words.insert(random.randrange(len(words)), random.choice(cue))
        if random.random() < 0.3:
            words.insert(random.randrange(len(words)), random.choice(other))
        rows.append((" ".join(words), label))
    return rows


train_rows, val_rows = make_reviews(6000), make_reviews(1000)

raw_tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
raw_tok.pre_tokenizer = pre_tokenizers.Whitespace()
raw_tok.train_from_iterator((t for t, _ in train_rows),
                            trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=raw_tok, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]", model_max_length=MAX_LEN)


def collate(batch):
    enc = tokenizer([t for t, _ in batch], padding=True, truncation=True, return_tensors="pt")
    enc["labels"] = torch.tensor([y for _, y in batch])
    return enc


config = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=4,
                    num_attention_heads=4, intermediate_size=256, max_position_embeddings=64,
                    num_labels=2, pad_token_id=tokenizer.pad_token_id)
model = BertForSequenceClassification(config)


def llrd_param_groups(model, decay):
    """Top of the network first: classifier+pooler, then encoder layers downwards, then embeddings."""
    stack = [list(model.classifier.parameters()) + list(model.bert.pooler.parameters())]
    stack += [list(layer.parameters()) for layer in reversed(model.bert.encoder.layer)]
    stack += [list(model.bert.embeddings.parameters())]
    return [{"params": params, "lr": decay ** depth} for depth, params in enumerate(stack)]


accelerator = Accelerator(cpu=True)
optimizer = torch.optim.AdamW(llrd_param_groups(model, DECAY), lr=LR, weight_decay=0.01)
train_dl = DataLoader(train_rows, batch_size=BATCH, shuffle=True, collate_fn=collate)
val_dl = DataLoader(val_rows, batch_size=256, collate_fn=collate)
total_steps = EPOCHS * len(train_dl)
scheduler = get_linear_schedule_with_warmup(optimizer, int(0.06 * total_steps), total_steps)
model, optimizer, train_dl, val_dl, scheduler = accelerator.prepare(model, optimizer, train_dl, val_dl, scheduler)

t0 = time.time()
step = 0
for epoch in range(EPOCHS):
    model.train()
    run, n_run = 0.0, 0
    for batch in train_dl:
        out = model(**batch)
        accelerator.backward(out.loss)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        step += 1
        run += out.loss.item()
        n_run += 1
        if step % 40 == 0:
            accelerator.print(f"epoch {epoch} step {step} loss {run / n_run:.4f}")
            run, n_run = 0.0, 0
    model.eval()
    correct = 0
    with torch.no_grad():
        for batch in val_dl:
            preds = model(**batch).logits.argmax(-1)
            correct += (preds == batch["labels"]).sum().item()
    accelerator.print(f"== epoch {epoch} val_acc {correct / len(val_rows):.4f} ({time.time() - t0:.0f}s)")
