"""News-topic classifier (EmbeddingBag + MLP) with a gradient-noise-scale monitor for batch-size tuning."""
import time
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 60000
EMB = 128
N_CLASSES = 8
BATCH_SIZE = 64
EPOCHS = 3
LR = 1e-3
N_DOCS = 24000


def make_corpus(seed=0):
    rng = np.random.default_rng(seed)
    topic_words = rng.integers(0, VOCAB, size=(N_CLASSES, 300))
    docs, labels = [], []
    for _ in range(N_DOCS):
        y = int(rng.integers(N_CLASSES))
        n = int(rng.integers(30, 200))
        k = rng.binomial(n, 0.3)
        toks = np.concatenate([rng.choice(topic_words[y], size=k), rng.integers(0, VOCAB, size=n - k)])
        docs.append(toks)
        labels.append(y)
    return docs, np.array(labels)


def batches(docs, labels, order):
    for i in range(0, len(order), BATCH_SIZE):
        idx = order[i:i + BATCH_SIZE]
        toks = [torch.from_numpy(docs[j]) for j in idx]
        offsets = torch.tensor([0] + [len(t) for t in toks[:-1]]).cumsum(0)
        yield torch.cat(toks), offsets, torch.from_numpy(labels[idx])


class TopicModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, EMB, mode="mean")
        self.mlp = nn.Sequential(nn.Linear(EMB, 256), nn.ReLU(), nn.Dropout(0.2), nn.Linear(256, N_CLASSES))

    def forward(self, toks, offsets):
        return self.mlp(self.emb(toks, offsets))


class GradNoiseMonitor:
    """Estimates the gradient noise scale B_simple = tr(Sigma) / |G|^2 over one epoch of steps."""

    def __init__(self, model):
        self.model = model
        self.steps = []

    def record(self):
        self.steps.append({n: p.grad for n, p in self.model.named_parameters() if p.grad is not None})

    def summary(self):
        names = self.steps[0].keys()
        trace, g2 = 0.0, 0.0
        for n in names:
            g = torch.stack([s[n] for s in self.steps])
            mean = g.mean(0)
            trace += g.var(0).sum().item() * BATCH_SIZE
            g2 += mean.pow(2).sum().item()
        self.steps.clear()
        return trace / max(g2, 1e-12)


def main():
    torch.manual_seed(0)
    docs, labels = make_corpus()
    n_val = 2000
    model = TopicModel()
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    monitor = GradNoiseMonitor(model)
    print(f"docs {N_DOCS} params {sum(p.numel() for p in model.parameters()):,} "
          f"steps/epoch {(N_DOCS - n_val + BATCH_SIZE - 1) // BATCH_SIZE}", flush=True)
    rng = np.random.default_rng(1)
    for epoch in range(EPOCHS):
        model.train()
        order = rng.permutation(np.arange(n_val, N_DOCS))
        t0 = time.time()
        for step, (toks, offsets, y) in enumerate(batches(docs, labels, order)):
            loss = F.cross_entropy(model(toks, offsets), y)
            opt.zero_grad()
            loss.backward()
            monitor.record()
            opt.step()
            if step % 25 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f} "
                      f"{(time.time() - t0) / (step + 1) * 1000:.0f} ms/step", flush=True)
        noise_scale = monitor.summary()
        model.eval()
        with torch.no_grad():
            correct = sum((model(t, o).argmax(1) == y).sum().item()
                          for t, o, y in batches(docs, labels, np.arange(n_val)))
        print(f"epoch {epoch} val_acc {correct / n_val:.3f} grad_noise_scale {noise_scale:.1f}", flush=True)
    torch.save(model.state_dict(), "topic_model.pt")


if __name__ == "__main__":
    main()
