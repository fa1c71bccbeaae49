"""Fine-tune a small BERT classifier on CPU with accelerate, bf16 to cut memory and use AMX.
Synthetic topic-classification data; tokenizer trained on the fly."""
import random
import time

import torch
from accelerate import Accelerator
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import (AutoModelForSequenceClassification, BertConfig, PreTrainedTokenizerFast,
                          get_linear_schedule_with_warmup, set_seed)

set_seed(0)
random.seed(0)
torch.set_num_threads(1)

TOPICS = {
    0: ["goal", "match", "coach", "league", "score", "striker", "season"],
    1: ["market", "stock", "profit", "shares", "bank", "investor", "rates"],
    2: ["vaccine", "doctor", "clinic", "virus", "patients", "hospital", "dose"],
    3: ["chip", "software", "startup", "cloud", "laptop", "robot", "app"],
}
COMMON = ["the", "a", "of", "in", "said", "new", "on", "after", "year", "and", "report", "today", "more", "for"]


def article():
    y = random.randrange(4)
    words = random.choices(COMMON, k=random.randint(12, 30)) + random.choices(TOPICS[y], k=2)
    random.shuffle(words)
    return " ".join(words), y


train_rows, val_rows = [article() for _ in range(4000)], [article() for _ in range(500)]
wp = Tokenizer(models.WordPiece(unk_token="[UNK]"))
wp.normalizer = normalizers.BertNormalizer(lowercase=True)
wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
wp.train_from_iterator([t for t, _ in train_rows],
                       trainers.WordPieceTrainer(vocab_size=400, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wp, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]")


def collate(rows):
    enc = tokenizer([t for t, _ in rows], padding=True, truncation=True, max_length=48, return_tensors="pt")
    enc["labels"] = torch.tensor([y for _, y in rows])
    return enc


accelerator = Accelerator(mixed_precision="bf16", cpu=True)
config = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=512, max_position_embeddings=64, num_labels=4)
model = AutoModelForSequenceClassification.from_config(config, dtype=torch.bfloat16)

EPOCHS, LR = 3, 1e-4
train_loader = torch.utils.data.DataLoader(train_rows, batch_size=32, shuffle=True, collate_fn=collate)
val_loader = torch.utils.data.DataLoader(val_rows, batch_size=128, collate_fn=collate)
optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
scheduler = get_linear_schedule_with_warmup(optimizer, 30, EPOCHS * len(train_loader))
model, optimizer, train_loader, val_loader, scheduler = accelerator.prepare(
    model, optimizer, train_loader, val_loader, scheduler)
accelerator.print(f"mixed_precision={accelerator.mixed_precision} device={accelerator.device} "
                  f"param dtype={next(model.parameters()).dtype}")

t0 = time.time()
for epoch in range(EPOCHS):
    model.train()
    losses = []
    for step, batch in enumerate(train_loader):
        loss = model(**batch).loss
        accelerator.backward(loss)
        accelerator.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        losses.append(loss.item())
        if (step + 1) % 25 == 0:
            accelerator.print(f"epoch {epoch} step {step+1} loss {sum(losses[-25:])/25:.4f} ({time.time()-t0:.0f}s)")
    model.eval()
    correct = 0
    with torch.no_grad():
        for batch in val_loader:
            correct += (model(**batch).logits.argmax(-1) == batch["labels"]).sum().item()
    accelerator.print(f"== epoch {epoch} val_acc {correct/len(val_rows):.3f}")
