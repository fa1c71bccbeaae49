"""Tweet intent classifier: small transformer encoder + mean pooling, custom PyTorch loop."""
import random
import re

import torch
import torch.nn as nn
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast, get_cosine_schedule_with_warmup

torch.manual_seed(0)
INTENTS = ["complaint", "question", "praise"]
WORDS = {
    "complaint": ["worst", "never", "again", "waiting", "rude", "cancelled", "delayed"],
    "question": ["how", "when", "can", "does", "anyone", "know", "where"],
    "praise": ["thanks", "amazing", "love", "best", "great", "helpful", "quick"],
}
COMMON = ["the", "app", "support", "order", "today", "my", "flight", "team", "is", "you", "for"]
URL_RE = re.compile(r"https?://\S+")
MENTION_RE = re.compile(r"@\w+")


def fake_tweet(rng):
    y = rng.randrange(3)
    if rng.random() < 0.002:
        return f"@airline{rng.randint(1, 9)} https://t.co/{rng.randint(10**5, 10**6)}", y
    toks = rng.choices(COMMON, k=rng.randint(3, 12)) + rng.choices(WORDS[INTENTS[y]], k=2)
    rng.shuffle(toks)
    if rng.random() < 0.3:
        toks.append(f"https://t.co/{rng.randint(10**5, 10**6)}")
    return " ".join(toks), y


def clean(text):
    return MENTION_RE.sub("", URL_RE.sub("", text)).strip()


class MeanPoolClassifier(nn.Module):
    def __init__(self, config, n_classes):
        super().__init__()
        self.encoder = BertModel(config, add_pooling_layer=False)
        self.head = nn.Linear(config.hidden_size, n_classes)

    def forward(self, input_ids, attention_mask):
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        mask = attention_mask.unsqueeze(-1).float()
        pooled = (hidden * mask).sum(1) / mask.sum(1)
        return self.head(pooled)


def main():
    rng = random.Random(0)
    raw = [fake_tweet(rng) for _ in range(6000)]
    texts = [clean(t) for t, _ in raw]
    labels = torch.tensor([y for _, y in raw])

    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.normalizer = normalizers.Lowercase()
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]"]))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]")
    enc = tokenizer(texts, padding=True, truncation=True, max_length=32, return_tensors="pt")
    print(f"tweets={len(texts)} vocab={len(tokenizer)} seq_len={enc['input_ids'].shape[1]}")

    ds = torch.utils.data.TensorDataset(enc["input_ids"], enc["attention_mask"], labels)
    train_ds, val_ds = torch.utils.data.random_split(ds, [5000, 1000], generator=torch.Generator().manual_seed(0))
    train_dl = torch.utils.data.DataLoader(train_ds, batch_size=32, shuffle=True, num_workers=2)
    val_dl = torch.utils.data.DataLoader(val_ds, batch_size=128)

    config = BertConfig(vocab_size=len(tokenizer), hidden_size=96, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=192, max_position_embeddings=64)
    model = MeanPoolClassifier(config, len(INTENTS))
    epochs = 2
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.01)
    sched = get_cosine_schedule_with_warmup(opt, 50, epochs * len(train_dl))
    loss_fn = nn.CrossEntropyLoss()

    step = 0
    for epoch in range(epochs):
        model.train()
        for ids, am, y in train_dl:
            loss = loss_fn(model(ids, am), y)
            opt.zero_grad()
            loss.backward()
            gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            step += 1
            if step % 5 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f} grad_norm {gn.item():.3f} lr {sched.get_last_lr()[0]:.2e}")
        model.eval()
        correct = 0
        with torch.no_grad():
            for ids, am, y in val_dl:
                correct += (model(ids, am).argmax(-1) == y).sum().item()
        print(f"== epoch {epoch} val_acc {correct / len(val_ds):.4f}")


if __name__ == "__main__":
    main()
