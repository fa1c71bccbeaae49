"""Transfer experiment: pretrain an encoder on the 20 source classes, then fine-tune on the 5-class target task
with the encoder frozen (linear probe) to measure how well the features transfer."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

D_IN, FEAT = 48, 128
torch.manual_seed(0)
G = torch.Generator().manual_seed(0)
BASIS = torch.randn(8, D_IN, generator=G)          # shared latent structure between tasks


def make_task(n, n_classes, task_seed, sample_seed):
    codes = torch.randn(n_classes, 8, generator=torch.Generator().manual_seed(task_seed))
    g = torch.Generator().manual_seed(sample_seed)
    y = torch.randint(0, n_classes, (n,), generator=g)
    z = codes[y] + 0.6 * torch.randn(n, 8, generator=g)
    x = torch.tanh(z @ BASIS) + 0.3 * torch.randn(n, D_IN, generator=g)
    return x, y


class Net(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(D_IN, 256), nn.LayerNorm(256), nn.GELU(),
                                     nn.Linear(256, FEAT), nn.GELU())
        self.head = nn.Linear(FEAT, n_classes)

    def forward(self, x):
        return self.head(self.encoder(x))


def build_optimizer(model, lr, wd=0.01):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if p.ndim < 2 or "norm" in name else decay).append(p)
    return torch.optim.AdamW([{"params": decay, "weight_decay": wd},
                              {"params": no_decay, "weight_decay": 0.0}], lr=lr)


def run_epochs(model, opt, train, val, epochs, tag):
    dl = DataLoader(TensorDataset(*train), batch_size=128, shuffle=True)
    for ep in range(epochs):
        model.train()
        tot = 0.0
        for x, y in dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
        model.eval()
        with torch.no_grad():
            acc = (model(val[0]).argmax(1) == val[1]).float().mean().item()
        print(f"[{tag}] epoch {ep} train_loss {tot / len(train[1]):.4f} val_acc {acc:.4f}")


def main():
    # stage 1: supervised pretraining on the source task
    src_tr, src_va = make_task(20000, 20, 1, 100), make_task(4000, 20, 1, 101)
    model = Net(n_classes=20)
    run_epochs(model, build_optimizer(model, lr=2e-3), src_tr, src_va, epochs=4, tag="pretrain")

    # stage 2: linear probe on the target task (few labels)
    tgt_tr, tgt_va = make_task(1500, 5, 2, 200), make_task(3000, 5, 2, 201)
    opt = build_optimizer(model, lr=1e-2)
    for p in model.encoder.parameters():
        p.requires_grad_(False)
    model.head = nn.Linear(FEAT, 5)
    n_trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"[probe] trainable params: {n_trainable}")
    run_epochs(model, opt, tgt_tr, tgt_va, epochs=8, tag="probe")


if __name__ == "__main__":
    main()
