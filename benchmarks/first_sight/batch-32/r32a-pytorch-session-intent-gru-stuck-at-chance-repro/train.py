"""Next-action intent model: GRU over a user's recent app events (variable length, padded per batch)."""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

torch.manual_seed(0)
N_EVENTS, N_INTENTS, PAD = 50, 5, 0


def make_sessions(n, seed):
    g = torch.Generator().manual_seed(seed)
    seqs, labels = [], []
    for _ in range(n):
        L = int(torch.randint(4, 80, (1,), generator=g))
        s = torch.randint(1, N_EVENTS, (L,), generator=g)
        labels.append(int((s[-1] + s[-2]) % N_INTENTS))
        seqs.append(s)
    return list(zip(seqs, labels))


def collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True, padding_value=PAD), lengths, torch.tensor(labels)


class IntentGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(N_EVENTS, 32, padding_idx=PAD)
        self.rnn = nn.GRU(32, 96, batch_first=True)
        self.head = nn.Linear(96, N_INTENTS)

    def forward(self, x, lengths):
        out, _ = self.rnn(self.emb(x))
        return self.head(out[:, -1])


def evaluate(model, dl):
    model.eval(); correct = total = 0
    with torch.no_grad():
        for x, lengths, y in dl:
            correct += (model(x, lengths).argmax(1) == y).sum().item(); total += len(y)
    return correct / total


def main():
    train_dl = DataLoader(make_sessions(8000, 0), batch_size=64, shuffle=True, collate_fn=collate)
    val_dl = DataLoader(make_sessions(2000, 1), batch_size=256, collate_fn=collate)
    model = IntentGRU()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(6):
        model.train(); tot = 0.0
        for x, lengths, y in train_dl:
            loss = nn.functional.cross_entropy(model(x, lengths), y)
            opt.zero_grad(); loss.backward(); opt.step(); tot += loss.item()
        print(f"epoch {epoch} train_loss {tot / len(train_dl):.4f} val_acc {evaluate(model, val_dl):.3f}", flush=True)


if __name__ == "__main__":
    main()
