import resource
# this box has limited RAM; cap address space at 3 GiB like the job's memory limit
resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))

import torch, torch.nn as nn
torch.manual_seed(0)

class Classifier(nn.Module):
    def __init__(self, d_in=1024, hidden=2048, n_cls=100):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.GELU(),
            nn.Linear(hidden, n_cls))
    def forward(self, x):
        return self.net(x)

model = Classifier()
val_X = torch.randn(120_000, 1024)
val_y = torch.randint(0, 100, (120_000,))
print(f"val set: {val_X.shape[0]} samples, {val_X.numel() * 4 / 1e9:.2f} GB")

def evaluate(model, bs=512):
    model.eval()
    all_logits, all_losses = [], []
    for i, start in enumerate(range(0, val_X.size(0), bs)):
        xb, yb = val_X[start:start + bs], val_y[start:start + bs]
        logits = model(xb)
        loss = nn.functional.cross_entropy(logits, yb)
        all_logits.append(logits)
        all_losses.append(loss)
        if i % 20 == 0:
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"eval batch {i}/{val_X.size(0) // bs} max_rss {rss:.0f} MB")
    logits = torch.cat(all_logits)
    acc = (logits.argmax(1) == val_y).float().mean().item()
    return torch.stack(all_losses).mean().item(), acc

val_loss, val_acc = evaluate(model)
print(f"val_loss {val_loss:.4f} val_acc {val_acc:.4f}")
