# Small text-classification style training run on CPU.
# The job runs inside a memory-limited container (ulimit -v), like a shared cluster node.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
VOCAB, SEQ, DIM, CLASSES = 5000, 128, 256, 20

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.enc = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(DIM, 4, 4 * DIM, batch_first=True), num_layers=2)
        self.head = nn.Linear(DIM, CLASSES)
    def forward(self, x):
        return self.head(self.enc(self.emb(x)).mean(1))

train = TensorDataset(torch.randint(0, VOCAB, (128, SEQ)), torch.randint(0, CLASSES, (128,)))
val = TensorDataset(torch.randint(0, VOCAB, (2048, SEQ)), torch.randint(0, CLASSES, (2048,)))
train_dl = DataLoader(train, batch_size=32, shuffle=True)
val_dl = DataLoader(val, batch_size=32)

model = Model()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
loss_fn = nn.CrossEntropyLoss()

for epoch in range(2):
    model.train()
    for step, (x, y) in enumerate(train_dl):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        if step % 2 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)

    # ---- validation ----
    model.eval()
    all_logits, all_labels = [], []
    for i, (x, y) in enumerate(val_dl):
        logits = model(x)
        all_logits.append(logits)
        all_labels.append(y)
        if i % 4 == 0:
            print(f"epoch {epoch} val batch {i}/{len(val_dl)}", flush=True)
    logits = torch.cat(all_logits)
    acc = (logits.argmax(-1) == torch.cat(all_labels)).float().mean().item()
    print(f"epoch {epoch} val_acc {acc:.4f}", flush=True)
