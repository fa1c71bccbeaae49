"""Review sentiment classifier: small BERT encoder + mean pooling, trained from scratch."""
import random
import re

import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast, get_linear_schedule_with_warmup

random.seed(1)
torch.manual_seed(1)

POS = ["great", "excellent", "love", "perfect", "works", "recommend", "fast", "sturdy", "happy"]
NEG = ["broken", "terrible", "refund", "slow", "useless", "cheap", "disappointed", "returned", "awful"]
FILLER = ["the", "this", "product", "it", "was", "and", "very", "after", "a", "week", "i", "my", "item"]


def raw_review():
    r = random.random()
    if r < 0.004:
        return random.choice(["https://shop.example.com/item/123", "<br/><br/>", "<p></p>"]), random.randint(0, 1)
    label = random.randint(0, 1)
    words = random.choices(FILLER, k=random.randint(4, 20)) + random.choices(POS if label else NEG, k=2)
    random.shuffle(words)
    text = " ".join(words)
    if random.random() < 0.2:
        text += " <br/> see https://shop.example.com/r/" + str(random.randint(1, 999))
    return text, label


def clean(text):
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    return re.sub(r"\s+", " ", text).strip().lower()


raw = [raw_review() for _ in range(12000)]
records = [{"text": clean(t), "label": y} for t, y in raw]
train_recs, val_recs = records[:10000], records[10000:]

wl = Tokenizer(models.WordLevel(unk_token="[UNK]"))
wl.normalizer = normalizers.Lowercase()
wl.pre_tokenizer = pre_tokenizers.Whitespace()
wl.train_from_iterator([r["text"] for r in train_recs],
                       trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wl, pad_token="[PAD]", unk_token="[UNK]")


class MeanPoolClassifier(nn.Module):
    def __init__(self, vocab_size, num_labels=2):
        super().__init__()
        cfg = BertConfig(vocab_size=vocab_size, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                         intermediate_size=128, max_position_embeddings=64, pad_token_id=0)
        self.encoder = BertModel(cfg, add_pooling_layer=False)
        self.head = nn.Linear(64, num_labels)

    def forward(self, input_ids, attention_mask):
        h = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        m = attention_mask.unsqueeze(-1).to(h.dtype)
        pooled = (h * m).sum(1) / m.sum(1)
        return self.head(pooled)


def collate(batch):
    enc = tokenizer([b["text"] for b in batch], padding=True, truncation=True, max_length=48, return_tensors="pt")
    enc["labels"] = torch.tensor([b["label"] for b in batch])
    return enc


train_dl = DataLoader(train_recs, batch_size=32, shuffle=True, collate_fn=collate)
val_dl = DataLoader(val_recs, batch_size=128, collate_fn=collate)

model = MeanPoolClassifier(len(tokenizer))
opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.01)
epochs = 2
sched = get_linear_schedule_with_warmup(opt, 100, epochs * len(train_dl))
loss_fn = nn.CrossEntropyLoss()

for epoch in range(epochs):
    model.train()
    for step, batch in enumerate(train_dl):
        logits = model(batch["input_ids"], batch["attention_mask"])
        loss = loss_fn(logits, batch["labels"])
        opt.zero_grad()
        loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        if step % 25 == 0:
            print(f"epoch {epoch} step {step:3d} loss {loss.item():.4f} grad_norm {gn.item():.3f}")
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for batch in val_dl:
            pred = model(batch["input_ids"], batch["attention_mask"]).argmax(-1)
            correct += (pred == batch["labels"]).sum().item()
            total += len(pred)
    print(f"epoch {epoch} val acc {correct / total:.4f}")
