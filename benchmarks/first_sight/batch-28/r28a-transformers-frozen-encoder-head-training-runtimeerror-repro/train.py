"""Ticket-priority classifier: frozen BERT encoder + small trainable head.

The encoder is shared with the search service and must not change, so only
the 2-layer head is trained on top of the [CLS] vector.
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from transformers import BertConfig, BertModel

torch.manual_seed(0)
VOCAB, SEQ, N_TRAIN, N_VAL, N_CLASSES = 3000, 48, 4096, 1024, 4

# stand-in for the search-service checkpoint (same architecture, no download here)
cfg = BertConfig(vocab_size=VOCAB, hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                 intermediate_size=256, max_position_embeddings=64)
encoder = BertModel(cfg, add_pooling_layer=False)
encoder.eval()
for p in encoder.parameters():
    p.requires_grad_(False)


def make_tickets(n, gen):
    y = torch.randint(0, N_CLASSES, (n,), generator=gen)
    ids = torch.randint(5, VOCAB, (n, SEQ), generator=gen)
    # each priority has a few tell-tale tokens sprinkled in
    key = 100 + 10 * y[:, None] + torch.randint(0, 10, (n, 6), generator=gen)
    pos = torch.randint(1, SEQ, (n, 6), generator=gen)
    ids.scatter_(1, pos, key)
    ids[:, 0] = 2  # [CLS]
    lengths = torch.randint(16, SEQ + 1, (n,), generator=gen)
    mask = (torch.arange(SEQ)[None] < lengths[:, None]).long()
    return ids * mask, mask, y


gen = torch.Generator().manual_seed(1)
tr_ids, tr_mask, tr_y = make_tickets(N_TRAIN, gen)
va_ids, va_mask, va_y = make_tickets(N_VAL, gen)


@torch.inference_mode()
def encode(ids, mask):
    out = encoder(input_ids=ids, attention_mask=mask)
    h = out.last_hidden_state
    m = mask.unsqueeze(-1).float()
    return (h * m).sum(1) / m.sum(1)


head = nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Dropout(0.1), nn.Linear(256, N_CLASSES))
opt = torch.optim.AdamW(head.parameters(), lr=1e-3)

print(f"encoder params (frozen): {sum(p.numel() for p in encoder.parameters()):,}")
print(f"head params (trainable): {sum(p.numel() for p in head.parameters()):,}")
for epoch in range(1, 6):
    head.train()
    t0, total = time.time(), 0.0
    perm = torch.randperm(N_TRAIN)
    for i in range(0, N_TRAIN, 64):
        idx = perm[i:i + 64]
        feats = encode(tr_ids[idx], tr_mask[idx])
        loss = F.cross_entropy(head(feats), tr_y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    head.eval()
    with torch.no_grad():
        acc = (head(encode(va_ids, va_mask)).argmax(1) == va_y).float().mean().item()
    print(f"epoch {epoch} loss {total / N_TRAIN:.4f} val_acc {acc:.4f} ({time.time() - t0:.1f}s)")
