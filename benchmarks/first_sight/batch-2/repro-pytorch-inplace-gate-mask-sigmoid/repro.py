# Gated sequence encoder: padded positions are masked out of the gate.
import torch
import torch.nn as nn

torch.manual_seed(0)

class GatedEncoder(nn.Module):
    def __init__(self, d=32, vocab=100):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.proj = nn.Linear(d, d)
        self.gate = nn.Linear(d, d)
        self.head = nn.Linear(d, 2)

    def forward(self, tokens):
        mask = (tokens != 0).unsqueeze(-1).float()
        h = self.emb(tokens)
        g = torch.sigmoid(self.gate(h))
        g *= mask                      # zero the gate on padding
        h = torch.tanh(self.proj(h)) * g
        pooled = h.sum(1) / mask.sum(1).clamp(min=1)
        return self.head(pooled)

model = GatedEncoder()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
loss_fn = nn.CrossEntropyLoss()
print(f"params: {sum(p.numel() for p in model.parameters())}")

for step in range(1, 51):
    tokens = torch.randint(1, 100, (16, 24))
    lengths = torch.randint(5, 25, (16,))
    tokens[torch.arange(24)[None, :] >= lengths[:, None]] = 0
    labels = torch.randint(0, 2, (16,))
    logits = model(tokens)
    loss = loss_fn(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step:3d} loss {loss.item():.4f}")
