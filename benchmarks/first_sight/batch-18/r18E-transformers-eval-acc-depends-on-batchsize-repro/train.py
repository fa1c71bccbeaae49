import random
import time

import torch
from torch.utils.data import DataLoader, Dataset
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)
random.seed(0)

PAD, CLS, VOCAB = 0, 1, 64
MAX_LEN = 64


def make_example():
    n = random.randint(4, MAX_LEN - 1)
    toks = [random.randint(4, VOCAB - 1) for _ in range(n)]
    # label: does the sequence contain more 10s than 11s
    for _ in range(random.randint(0, 4)):
        toks[random.randrange(n)] = 10
    for _ in range(random.randint(0, 4)):
        toks[random.randrange(n)] = 11
    label = int(toks.count(10) > toks.count(11))
    return [CLS] + toks, label


class SeqDataset(Dataset):
    def __init__(self, n):
        self.items = [make_example() for _ in range(n)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def collate(batch):
    max_len = max(len(t) for t, _ in batch)
    ids = torch.full((len(batch), max_len), PAD, dtype=torch.long)
    mask = torch.zeros((len(batch), max_len), dtype=torch.long)
    for i, (t, _) in enumerate(batch):
        ids[i, : len(t)] = torch.tensor(t)
        mask[i, : len(t)] = 1
    labels = torch.tensor([y for _, y in batch])
    return {"input_ids": ids, "attention_mask": mask, "labels": labels}


cfg = BertConfig(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                 intermediate_size=64, max_position_embeddings=64, num_labels=2, pad_token_id=PAD)
model = BertForSequenceClassification(cfg)

train_ds, val_ds = SeqDataset(2000), SeqDataset(600)
train_dl = DataLoader(train_ds, batch_size=32, shuffle=True, collate_fn=collate)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)


def forward(batch):
    return model(input_ids=batch["input_ids"], labels=batch["labels"])


@torch.no_grad()
def evaluate(ds, batch_size):
    model.eval()
    preds = []
    for batch in DataLoader(ds, batch_size=batch_size, collate_fn=collate):
        preds.append(forward(batch).logits.argmax(-1))
    model.train()
    preds = torch.cat(preds)
    labels = torch.tensor([y for _, y in ds])
    return (preds == labels).float().mean().item(), preds


t0 = time.time()
for epoch in range(3):
    total = 0.0
    for step, batch in enumerate(train_dl):
        out = forward(batch)
        out.loss.backward()
        opt.step()
        opt.zero_grad()
        total += out.loss.item()
    print(f"epoch {epoch} train_loss {total / len(train_dl):.4f} "
          f"val_acc(bs=64) {evaluate(val_ds, 64)[0]:.4f} ({time.time() - t0:.0f}s)")

results = {bs: evaluate(val_ds, bs) for bs in (64, 256, 1)}
for bs, (acc, _) in results.items():
    print(f"final val_acc bs={bs:<4d}: {acc:.4f}")
diff = (results[1][1] != results[64][1]).sum().item()
print(f"predictions that differ between bs=1 and bs=64: {diff}/{len(val_ds)}")
