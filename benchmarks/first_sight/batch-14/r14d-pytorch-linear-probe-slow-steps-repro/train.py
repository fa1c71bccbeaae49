import time
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(2)

CFG = dict(d_model=256, layers=6, heads=8, seq_len=64, vocab=5000, n_classes=12,
           batch_size=32, epochs=2, lr=1e-3)


class Encoder(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.tok = nn.Embedding(c["vocab"], c["d_model"])
        self.pos = nn.Parameter(torch.zeros(1, c["seq_len"], c["d_model"]))
        layer = nn.TransformerEncoderLayer(c["d_model"], c["heads"], 4 * c["d_model"], dropout=0.1,
                                           batch_first=True, norm_first=True)
        self.layers = nn.TransformerEncoder(layer, c["layers"], enable_nested_tensor=False)
        self.norm = nn.LayerNorm(c["d_model"])

    def forward(self, ids):
        return self.norm(self.layers(self.tok(ids) + self.pos)).mean(1)


class Probe(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.backbone = Encoder(c)
        self.head = nn.Linear(c["d_model"], c["n_classes"])

    def forward(self, ids):
        return self.head(self.backbone(ids))


def main():
    # "pretrained" encoder checkpoint from the self-supervised run
    torch.save(Encoder(CFG).state_dict(), "encoder_pretrained.pt")

    model = Probe(CFG)
    model.backbone.load_state_dict(torch.load("encoder_pretrained.pt"))
    n_head = sum(p.numel() for p in model.head.parameters())
    n_all = sum(p.numel() for p in model.parameters())
    print(f"linear probe: training {n_head:,} head parameters, backbone ({n_all - n_head:,}) frozen")

    ids = torch.randint(0, CFG["vocab"], (1920, CFG["seq_len"]))
    y = (ids[:, :8].sum(1) % CFG["n_classes"])
    dl = DataLoader(TensorDataset(ids, y), batch_size=CFG["batch_size"], shuffle=True)
    opt = torch.optim.AdamW(model.head.parameters(), lr=CFG["lr"])

    for epoch in range(1, CFG["epochs"] + 1):
        model.train()
        t0, seen = time.time(), 0
        for step, (xb, yb) in enumerate(dl, 1):
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            seen += len(xb)
            if step % 20 == 0:
                dt = time.time() - t0
                print(f"epoch {epoch} step {step}/{len(dl)} | loss {loss.item():.4f} | "
                      f"{seen / dt:.1f} samples/s | {1000 * dt / step:.0f} ms/step")
        print(f"=== epoch {epoch} took {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
