"""Tiny from-scratch BERT intent classifier for the on-device router (target: < 1.5M params, < 150 ms/step on the CI box)."""
import time

import torch
from torch.utils.data import DataLoader, TensorDataset
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)
VOCAB, SEQ, N_INTENTS = 4000, 48, 6

MODEL_CFG = dict(
    vocab_size=VOCAB,
    hidden_size=128,
    num_hidden_layer=2,
    num_attention_heads=4,
    intermediate_size=512,
    max_position_embeddings=64,
    hidden_dropout_prob=0.1,
    num_labels=N_INTENTS,
)


def synthetic_intents(n):
    ids = torch.randint(5, VOCAB, (n, SEQ))
    labels = torch.randint(0, N_INTENTS, (n,))
    ids[:, 1] = 10 + labels * 7 + torch.randint(0, 7, (n,))  # intent keyword
    ids[:, 0] = 2
    lengths = torch.randint(12, SEQ, (n,))
    mask = (torch.arange(SEQ)[None] < lengths[:, None]).long()
    return TensorDataset(ids * mask, mask, labels)


def main():
    config = BertConfig(**MODEL_CFG)
    model = BertForSequenceClassification(config)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"model params: {n_params / 1e6:.2f}M", flush=True)
    train_dl = DataLoader(synthetic_intents(1600), batch_size=32, shuffle=True)
    val = synthetic_intents(640)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.01)
    for epoch in range(2):
        model.train(); t0 = time.time()
        for step, (ids, mask, y) in enumerate(train_dl):
            out = model(input_ids=ids, attention_mask=mask, labels=y)
            opt.zero_grad(); out.loss.backward(); opt.step()
            if step % 10 == 0:
                ms = (time.time() - t0) / (step + 1) * 1000
                print(f"epoch {epoch} step {step:3d} loss {out.loss.item():.4f} {ms:.0f} ms/step", flush=True)
        model.eval()
        with torch.no_grad():
            pred = model(input_ids=val.tensors[0], attention_mask=val.tensors[1]).logits.argmax(-1)
        acc = (pred == val.tensors[2]).float().mean().item()
        print(f"epoch {epoch} done in {time.time() - t0:.1f}s  val_acc {acc:.3f}", flush=True)
    if n_params > 1.5e6:
        print(f"WARNING: {n_params / 1e6:.2f}M params exceeds the 1.5M on-device budget", flush=True)


if __name__ == "__main__":
    main()
