"""Topic classifier head on top of cached sentence embeddings (embeddings were exported in bf16)."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(2)
torch.manual_seed(0)
EMB_DIM, CLASSES, EPOCHS, LR = 384, 10, 5, 5e-5


def load_cached_embeddings(n, seed):
    """Stand-in for torch.load('emb_cache/{split}.pt'): bf16 [n, 384] embeddings + int64 labels."""
    g = torch.Generator().manual_seed(seed)
    topic_dirs = torch.randn(CLASSES, EMB_DIM, generator=torch.Generator().manual_seed(0))
    y = torch.randint(0, CLASSES, (n,), generator=g)
    emb = 0.35 * topic_dirs[y] + torch.randn(n, EMB_DIM, generator=g)
    emb = F.normalize(emb, dim=1)
    return emb.to(torch.bfloat16), y


x_tr, y_tr = load_cached_embeddings(24000, 1)
x_va, y_va = load_cached_embeddings(4000, 2)
print(f"train {tuple(x_tr.shape)} {x_tr.dtype}, val {tuple(x_va.shape)}")
train_dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=64, shuffle=True)
val_dl = DataLoader(TensorDataset(x_va, y_va), batch_size=1000)

head = nn.Sequential(
    nn.Linear(EMB_DIM, 512), nn.GELU(), nn.Dropout(0.1),
    nn.Linear(512, 512), nn.GELU(), nn.Dropout(0.1),
    nn.Linear(512, CLASSES),
)
head = head.to(x_tr.dtype)
opt = torch.optim.AdamW(head.parameters(), lr=LR, weight_decay=0.01)
print(f"head params {sum(p.numel() for p in head.parameters()):,} | AdamW lr {LR}")


@torch.no_grad()
def evaluate():
    head.eval()
    correct, loss = 0, 0.0
    for x, y in val_dl:
        logits = head(x).float()
        loss += F.cross_entropy(logits, y, reduction="sum").item()
        correct += (logits.argmax(1) == y).sum().item()
    head.train()
    return loss / len(y_va), correct / len(y_va)


step = 0
for epoch in range(EPOCHS):
    t0, running = time.time(), 0.0
    for x, y in train_dl:
        loss = F.cross_entropy(head(x).float(), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        running += loss.item()
        step += 1
        if step % 150 == 0:
            print(f"step {step:5d} | loss {loss.item():.4f}", flush=True)
    val_loss, val_acc = evaluate()
    print(f"epoch {epoch} | train_loss {running / len(train_dl):.4f} | val_loss {val_loss:.4f} | "
          f"val_acc {val_acc:.4f} | {time.time() - t0:.1f}s", flush=True)

torch.save(head.state_dict(), "topic_head.pt")
