"""Dual-encoder product search: train with in-batch negatives, then report recall@10 on the catalogue."""
import random
import time

import torch
import torch.nn.functional as F
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast, get_linear_schedule_with_warmup

torch.manual_seed(0)
COLORS = "red blue green black white grey pink yellow orange purple".split()
ITEMS = "jacket sneaker backpack lamp kettle blender desk chair mug scarf tent bottle drone speaker watch".split()
BRANDS = [f"brand{i}" for i in range(60)]
FEATURES = "waterproof wireless foldable organic vintage compact ergonomic insulated recycled premium".split()
SIZES = "xs s m l xl xxl mini maxi".split()


def make_product(rng):
    return [rng.choice(COLORS), rng.choice(ITEMS), rng.choice(BRANDS), rng.choice(FEATURES), rng.choice(SIZES)]


def passage(p):
    return f"{p[2]} {p[3]} {p[1]} in {p[0]} size {p[4]}"


def query(p, rng):
    keep = rng.sample(range(5), 4)
    return " ".join(p[i] for i in sorted(keep))


class Encoder(torch.nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        cfg = BertConfig(vocab_size=vocab_size, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                         intermediate_size=128, max_position_embeddings=32)
        self.bert = BertModel(cfg, add_pooling_layer=False)

    def forward(self, ids, mask):
        h = self.bert(input_ids=ids, attention_mask=mask).last_hidden_state
        emb = (h * mask.unsqueeze(-1)).sum(1) / mask.sum(1, keepdim=True).clamp(min=1)
        return F.normalize(emb, dim=-1)


@torch.no_grad()
def encode(model, enc, bs=2048):
    model.eval()
    out = [model(enc["input_ids"][i:i + bs], enc["attention_mask"][i:i + bs])
           for i in range(0, len(enc["input_ids"]), bs)]
    return torch.cat(out)


def main():
    rng = random.Random(0)
    catalogue = [make_product(rng) for _ in range(200_000)]
    passages = [passage(p) for p in catalogue]
    train_idx = rng.sample(range(len(catalogue)), 16_000)
    eval_idx = rng.sample(range(len(catalogue)), 40_000)

    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(passages[:5000] + BRANDS, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]"]))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]")
    kw = dict(padding="max_length", max_length=12, truncation=True, return_tensors="pt")
    p_enc = tokenizer(passages, **kw)
    print(f"catalogue={len(passages)} train_pairs={len(train_idx)} eval_queries={len(eval_idx)} vocab={len(tokenizer)}")

    model = Encoder(len(tokenizer))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    bs, epochs = 128, 1
    steps = epochs * (len(train_idx) // bs)
    sched = get_linear_schedule_with_warmup(opt, 50, steps)
    step = 0
    for epoch in range(epochs):
        model.train()
        rng.shuffle(train_idx)
        for b in range(0, len(train_idx) - bs + 1, bs):
            idx = train_idx[b:b + bs]
            q = tokenizer([query(catalogue[i], rng) for i in idx], **kw)
            q_emb = model(q["input_ids"], q["attention_mask"])
            p_emb = model(p_enc["input_ids"][idx], p_enc["attention_mask"][idx])
            logits = q_emb @ p_emb.T / 0.05
            loss = F.cross_entropy(logits, torch.arange(len(idx)))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if step % 50 == 0:
                print(f"epoch {epoch} step {step}/{steps} in-batch loss {loss.item():.4f}")

    t0 = time.time()
    q_enc = tokenizer([query(catalogue[i], rng) for i in eval_idx], **kw)
    q_emb, p_emb = encode(model, q_enc), encode(model, p_enc)
    print(f"encoded {len(q_emb)} queries and {len(p_emb)} passages in {time.time() - t0:.1f}s")

    scores = q_emb @ p_emb.T
    top10 = scores.topk(10, dim=1).indices
    gold = torch.tensor(eval_idx).unsqueeze(1)
    print(f"recall@10 = {(top10 == gold).any(1).float().mean().item():.4f}")


if __name__ == "__main__":
    main()
