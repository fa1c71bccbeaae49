"""Intent classifier for the IT helpdesk bot: small BERT trained from scratch on our WordPiece vocab.

Recipe: AdamW, no weight decay on biases/LayerNorm, 10x learning rate on the freshly initialised head,
linear warmup/decay.
"""
import random
import time

import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from torch.utils.data import DataLoader
from transformers import (BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, get_linear_schedule_with_warmup)

random.seed(0)
torch.manual_seed(0)
INTENTS = {
    "password_reset": ["i forgot my password", "reset my password please", "locked out of my account"],
    "vpn": ["vpn keeps disconnecting", "cannot connect to the vpn", "vpn client error 809"],
    "hardware": ["my laptop screen is broken", "need a new keyboard", "docking station not working"],
    "access": ["need access to the finance share", "grant me jira admin", "request access to the repo"],
    "software": ["install python on my machine", "excel keeps crashing", "need a license for figma"],
}
LABELS = sorted(INTENTS)
PREFIX = ["hi", "hello", "hey team", "urgent", "", "", "please help", "good morning"]


def synth(n):
    out = []
    for _ in range(n):
        lab = random.choice(LABELS)
        out.append((f"{random.choice(PREFIX)} {random.choice(INTENTS[lab])}".strip(), LABELS.index(lab)))
    return out


train_rows, val_rows = synth(4000), synth(500)

tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
tok.normalizer = normalizers.BertNormalizer(lowercase=True)
tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
tok.train_from_iterator([t for t, _ in train_rows], trainers.WordPieceTrainer(
    vocab_size=400, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
tok.post_processor = processors.BertProcessing(
    ("[SEP]", tok.token_to_id("[SEP]")), ("[CLS]", tok.token_to_id("[CLS]")))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")


def encode(rows):
    return [dict(tokenizer(t, truncation=True, max_length=32), labels=y) for t, y in rows]


collate = DataCollatorWithPadding(tokenizer)
train_dl = DataLoader(encode(train_rows), batch_size=32, shuffle=True, collate_fn=collate)
val_dl = DataLoader(encode(val_rows), batch_size=128, collate_fn=collate)

cfg = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                 intermediate_size=256, max_position_embeddings=64, num_labels=len(LABELS))
model = BertForSequenceClassification(cfg)
print(f"vocab {tokenizer.vocab_size}  params {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M")

BASE_LR, EPOCHS = 5e-4, 3
no_decay = ("bias", "LayerNorm.weight")
param_groups = [
    {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)],
     "weight_decay": 0.01},
    {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)],
     "weight_decay": 0.0},
    {"params": model.classifier.parameters(), "lr": BASE_LR * 10, "weight_decay": 0.0},
]
optimizer = torch.optim.AdamW(param_groups, lr=BASE_LR)
total = EPOCHS * len(train_dl)
scheduler = get_linear_schedule_with_warmup(optimizer, int(0.1 * total), total)

for epoch in range(EPOCHS):
    model.train()
    t0 = time.time()
    for step, batch in enumerate(train_dl):
        out = model(**batch)
        out.loss.backward()
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        if step % 40 == 0:
            print(f"epoch {epoch} step {step} loss {out.loss.item():.4f}")
    model.eval()
    correct = 0
    with torch.no_grad():
        for batch in val_dl:
            correct += (model(**batch).logits.argmax(-1) == batch["labels"]).sum().item()
    print(f"epoch {epoch} val_acc {correct / len(val_rows):.4f} ({time.time() - t0:.1f}s)")
