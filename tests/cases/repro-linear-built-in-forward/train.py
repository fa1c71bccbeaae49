"""Sentiment classifier over mean-pooled embeddings, head sized from the input at run time."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, CLASSES = 500, 2


class BagClassifier(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, dim)
        self.num_classes = CLASSES

    def forward(self, tokens):
        h = self.emb(tokens).mean(dim=1)
        out = nn.Linear(h.shape[-1], self.num_classes)(h)
        return out


tokens = torch.randint(0, VOCAB, (1024, 20))
labels = (tokens < 100).sum(dim=1).gt(4).long()
model = BagClassifier()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(15):
    loss = F.cross_entropy(model(tokens), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 3 == 2:
        model.eval()
        with torch.no_grad():
            acc = (model(tokens).argmax(-1) == labels).float().mean().item()
        model.train()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} acc {acc:.3f}")
