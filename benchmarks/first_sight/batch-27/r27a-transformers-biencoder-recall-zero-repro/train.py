"""Product-search bi-encoder: tiny BERT, mean pooling, in-batch-negative contrastive loss.
Reports recall@k of query -> product retrieval over a held-out catalogue.
"""
import random

import numpy as np
import torch
import torch.nn.functional as F
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

rng = random.Random(0)
torch.manual_seed(0)
BRANDS = [f"brand{i}" for i in range(60)]
CATS = [f"cat{i}" for i in range(40)]
COLORS = "red blue green black white grey pink yellow orange purple brown beige".split()
CAT_ALIAS = {c: f"q{c}" for c in CATS}
COLOR_ALIAS = dict(zip(COLORS, "crimson navy lime jet ivory ash rose lemon tangerine violet tan sand".split()))
FILL = "new best cheap sale for men women kids pro original classic".split()
BATCH, STEPS, LR, TEMP = 64, 400, 1e-3, 0.05


def product(i):
    return {"id": i, "brand": rng.choice(BRANDS), "cat": rng.choice(CATS), "color": rng.choice(COLORS)}


def title(p):
    return f"{p['brand']} {p['cat']} {p['color']} {rng.choice(FILL)}"


def query(p):
    words = [CAT_ALIAS[p["cat"]], COLOR_ALIAS[p["color"]], p["brand"]] + rng.sample(FILL, 2)
    rng.shuffle(words)
    return " ".join(words)


def build_tokenizer():
    vocab = {w: i for i, w in enumerate(["[PAD]", "[UNK]"] + BRANDS + CATS + COLORS + FILL
                                             + list(CAT_ALIAS.values()) + list(COLOR_ALIAS.values()))}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]")


def encode(model, tokenizer, texts):
    enc = tokenizer(texts, padding=True, return_tensors="pt")
    h = model(**enc).last_hidden_state
    m = enc["attention_mask"].unsqueeze(-1).float()
    return F.normalize((h * m).sum(1) / m.sum(1), dim=-1)


@torch.no_grad()
def recall_at_k(model, tokenizer, catalogue, ks=(1, 5, 10)):
    model.eval()
    item_emb = torch.cat([encode(model, tokenizer, [title(p) for p in catalogue[i:i + 512]])
                          for i in range(0, len(catalogue), 512)])
    queries = [query(p) for p in catalogue[:1000]]
    q_emb = encode(model, tokenizer, queries)
    scores = (q_emb @ item_emb.T).numpy()
    ranked = np.argsort(scores, axis=1)
    gold = np.arange(len(queries))[:, None]
    model.train()
    return {f"recall@{k}": float((ranked[:, :k] == gold).any(1).mean()) for k in ks}


def main():
    tokenizer = build_tokenizer()
    cfg = BertConfig(vocab_size=len(tokenizer), hidden_size=96, num_hidden_layers=2,
                     num_attention_heads=4, intermediate_size=192, max_position_embeddings=16)
    model = BertModel(cfg, add_pooling_layer=False)
    opt = torch.optim.AdamW(model.parameters(), lr=LR)
    train_products = [product(i) for i in range(20_000)]
    catalogue = [product(i) for i in range(2_000)]
    print(f"train products={len(train_products)} catalogue={len(catalogue)} "
          f"random recall@10={10 / len(catalogue):.4f}")
    print("before training:", recall_at_k(model, tokenizer, catalogue))

    for step in range(1, STEPS + 1):
        batch = rng.sample(train_products, BATCH)
        q = encode(model, tokenizer, [query(p) for p in batch])
        d = encode(model, tokenizer, [title(p) for p in batch])
        logits = q @ d.T / TEMP
        labels = torch.arange(BATCH)
        loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0:
            in_batch_acc = (logits.argmax(1) == labels).float().mean().item()
            print(f"step {step} loss {loss.item():.4f} in-batch acc {in_batch_acc:.3f}")
        if step % 200 == 0:
            print(f"step {step} eval:", recall_at_k(model, tokenizer, catalogue))
    model.save_pretrained("biencoder-ckpt")


if __name__ == "__main__":
    main()
