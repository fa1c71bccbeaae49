import math
import torch
from torch.utils.data import DataLoader, Dataset
from transformers import BertConfig, BertForSequenceClassification, get_linear_schedule_with_warmup

torch.manual_seed(0)
g = torch.Generator().manual_seed(0)

VOCAB, SEQ, N_CLASSES = 300, 32, 3
EPOCHS, BATCH, LR = 3, 32, 1e-3
# label is decided by which "trigger" token family appears most often in the sequence
FAMILIES = [torch.arange(10, 30), torch.arange(30, 50), torch.arange(50, 70)]


class SyntheticIntents(Dataset):
    def __init__(self, n):
        self.ids = torch.randint(100, VOCAB, (n, SEQ), generator=g)
        self.labels = torch.randint(0, N_CLASSES, (n,), generator=g)
        for i in range(n):
            fam = FAMILIES[self.labels[i]]
            k = int(torch.randint(3, 8, (1,), generator=g))
            pos = torch.randperm(SEQ - 1, generator=g)[:k] + 1
            self.ids[i, pos] = fam[torch.randint(0, len(fam), (k,), generator=g)]
        self.ids[:, 0] = 2  # [CLS]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "attention_mask": torch.ones(SEQ, dtype=torch.long), "labels": self.labels[i]}


train_ds, val_ds = SyntheticIntents(3000), SyntheticIntents(600)
train_dl = DataLoader(train_ds, batch_size=BATCH, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=200)

config = BertConfig(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=128, max_position_embeddings=64, num_labels=N_CLASSES)
model = BertForSequenceClassification(config)
optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=int(0.1 * EPOCHS) or 1,
                                            num_training_steps=EPOCHS)
print(f"params {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M, {len(train_dl)} steps/epoch, chance loss {math.log(N_CLASSES):.4f}")


def evaluate():
    model.eval()
    correct, loss_sum = 0, 0.0
    with torch.no_grad():
        for batch in val_dl:
            out = model(**batch)
            loss_sum += out.loss.item() * len(batch["labels"])
            correct += (out.logits.argmax(-1) == batch["labels"]).sum().item()
    model.train()
    return loss_sum / len(val_ds), correct / len(val_ds)


global_step = 0
for epoch in range(EPOCHS):
    model.train()
    for batch in train_dl:
        out = model(**batch)
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        global_step += 1
        if global_step % 25 == 0:
            print(f"step {global_step:4d} train_loss {out.loss.item():.4f}")
    vl, va = evaluate()
    print(f"epoch {epoch} val_loss {vl:.4f} val_acc {va:.3f}")
