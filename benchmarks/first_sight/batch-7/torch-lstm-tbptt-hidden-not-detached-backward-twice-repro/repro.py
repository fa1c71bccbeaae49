# Character-level LSTM language model
# trained with truncated BPTT.
import torch
import torch.nn as nn

torch.manual_seed(0)

text = ("the quick brown fox jumps over the lazy dog. " * 200)
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)

batch_size, bptt = 8, 35
n = data.size(0) // batch_size
data = data[: n * batch_size].view(batch_size, n)  # (B, T)


class CharLM(nn.Module):
    def __init__(self, vocab, emb=32, hidden=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x, state=None):
        out, state = self.lstm(self.emb(x), state)
        return self.head(out), state


model = CharLM(len(chars))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.CrossEntropyLoss()

for epoch in range(2):
    state = None
    for step, i in enumerate(range(0, data.size(1) - 1 - bptt, bptt)):
        x = data[:, i : i + bptt]
        y = data[:, i + 1 : i + 1 + bptt]
        logits, state = model(x, state)
        loss = loss_fn(logits.reshape(-1, len(chars)), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
