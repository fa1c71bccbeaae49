"""Full-batch 2-layer GCN for paper-topic classification on the internal citation graph.

Graph export: nodes = papers (bag-of-words features), edges = citations (undirected).
Propagation rule from Kipf & Welling: H' = act(D^-1/2 A D^-1/2 H W).
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_NODES = 4000
N_FEATS = 300
N_CLASSES = 7
HIDDEN = 64
EPOCHS = 200


def load_graph():
    """Synthetic stand-in for the export: homophilous citations + sparse bag-of-words."""
    g = torch.Generator().manual_seed(1)
    y = torch.randint(0, N_CLASSES, (N_NODES,), generator=g)
    topic_words = torch.rand(N_CLASSES, N_FEATS, generator=g) < 0.08
    x = (torch.rand(N_NODES, N_FEATS, generator=g) < 0.02) | (topic_words[y] & (torch.rand(N_NODES, N_FEATS, generator=g) < 0.3))
    x = x.float()
    src = torch.randint(0, N_NODES, (16000,), generator=g)
    same = torch.rand(16000, generator=g) < 0.8
    cand = torch.randint(0, N_NODES, (16000,), generator=g)
    # pick a destination with the same label for homophilous edges
    by_class = [torch.nonzero(y == c).squeeze(1) for c in range(N_CLASSES)]
    dst = torch.where(same, torch.stack([by_class[y[s]][torch.randint(0, len(by_class[y[s]]), (1,), generator=g)][0] for s in src]), cand)
    recent = torch.randperm(N_NODES, generator=g)[:60]
    keep = ~(torch.isin(src, recent) | torch.isin(dst, recent)) & (src != dst)
    edge_index = torch.stack([src[keep], dst[keep]])
    return x, y, edge_index


def normalized_adjacency(edge_index, n):
    A = torch.zeros(n, n)
    A[edge_index[0], edge_index[1]] = 1.0
    A[edge_index[1], edge_index[0]] = 1.0
    deg = A.sum(dim=1)
    d_inv_sqrt = deg.pow(-0.5)
    return d_inv_sqrt[:, None] * A * d_inv_sqrt[None, :]


class GCN(nn.Module):
    def __init__(self, d_in, d_hidden, n_classes, dropout=0.5):
        super().__init__()
        self.lin1 = nn.Linear(d_in, d_hidden)
        self.lin2 = nn.Linear(d_hidden, n_classes)
        self.dropout = dropout

    def forward(self, x, a_hat):
        h = F.relu(a_hat @ self.lin1(F.dropout(x, self.dropout, self.training)))
        return a_hat @ self.lin2(F.dropout(h, self.dropout, self.training))


def main():
    x, y, edge_index = load_graph()
    a_hat = normalized_adjacency(edge_index, N_NODES)
    perm = torch.randperm(N_NODES)
    train_idx, val_idx, test_idx = perm[:1400], perm[1400:2400], perm[2400:]
    print(f"nodes {N_NODES} edges {edge_index.size(1)} features {N_FEATS} classes {N_CLASSES}")

    model = GCN(N_FEATS, HIDDEN, N_CLASSES)
    opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    best_val, t0 = 0.0, time.time()
    for epoch in range(1, EPOCHS + 1):
        model.train()
        out = model(x, a_hat)
        loss = F.cross_entropy(out[train_idx], y[train_idx])
        opt.zero_grad()
        loss.backward()
        opt.step()

        model.eval()
        with torch.no_grad():
            pred = model(x, a_hat).argmax(1)
        val_acc = (pred[val_idx] == y[val_idx]).float().mean().item()
        test_acc = (pred[test_idx] == y[test_idx]).float().mean().item()
        best_val = max(best_val, val_acc)
        if epoch == 1 or epoch % 20 == 0:
            print(f"epoch {epoch:3d} loss {loss.item():.4f} val_acc {val_acc:.3f} test_acc {test_acc:.3f} "
                  f"({time.time() - t0:.1f}s)", flush=True)
    print(f"best val_acc {best_val:.3f}")


if __name__ == "__main__":
    main()
