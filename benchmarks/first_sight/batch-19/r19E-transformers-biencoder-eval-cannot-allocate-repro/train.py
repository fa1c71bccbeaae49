"""Bi-encoder for catalogue search: tiny BERT, in-batch-negative contrastive training,
then Recall@k of every query against the full catalogue."""
import random
import time

import torch
import torch.nn.functional as F
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

torch.manual_seed(0)
rng = random.Random(0)

N_CATALOGUE = 90_000
WORDS = [f"w{i}" for i in range(6000)]
vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, **{w: i + 4 for i, w in enumerate(WORDS)}}
core = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]", model_max_length=16)

# catalogue entries are 6 attribute words; a query mentions 3 of them (shuffled) plus one noise word
catalogue = [rng.sample(WORDS, 6) for _ in range(N_CATALOGUE)]


def make_query(item):
    q = rng.sample(item, 3) + [rng.choice(WORDS)]
    rng.shuffle(q)
    return " ".join(q)


passages = [" ".join(item) for item in catalogue]
queries = [make_query(item) for item in catalogue]

config = BertConfig(vocab_size=len(vocab), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=128, max_position_embeddings=16)
encoder = BertModel(config)
print(f"encoder params {sum(p.numel() for p in encoder.parameters())/1e6:.2f}M, catalogue {N_CATALOGUE}")


def embed(texts):
    enc = tokenizer(texts, padding=True, truncation=True, return_tensors="pt")
    h = encoder(**enc).last_hidden_state
    m = enc["attention_mask"].unsqueeze(-1).float()
    return F.normalize((h * m).sum(1) / m.sum(1), dim=-1)


@torch.no_grad()
def embed_all(texts, bs=2048):
    encoder.eval()
    out = torch.cat([embed(texts[i:i + bs]) for i in range(0, len(texts), bs)])
    encoder.train()
    return out


opt = torch.optim.AdamW(encoder.parameters(), lr=1e-3)
BATCH, STEPS, TEMP = 128, 300, 0.05
t0 = time.time()
for step in range(1, STEPS + 1):
    idx = rng.sample(range(N_CATALOGUE), BATCH)
    q = embed([queries[i] for i in idx])
    p = embed([passages[i] for i in idx])
    logits = q @ p.T / TEMP
    loss = F.cross_entropy(logits, torch.arange(BATCH))
    loss.backward()
    opt.step()
    opt.zero_grad()
    if step % 50 == 0:
        acc = (logits.argmax(1) == torch.arange(BATCH)).float().mean().item()
        print(f"step {step} loss {loss.item():.4f} in-batch acc {acc:.3f} ({time.time()-t0:.1f}s)", flush=True)


def recall_at_k(ks=(1, 10)):
    q_emb = embed_all(queries)
    d_emb = embed_all(passages)
    print(f"embedded {len(q_emb)} queries / {len(d_emb)} passages: {tuple(q_emb.shape)}, "
          f"{q_emb.element_size() * q_emb.nelement() / 2**20:.1f} MiB each")
    scores = q_emb @ d_emb.T
    top = scores.topk(max(ks), dim=1).indices
    gold = torch.arange(len(q_emb)).unsqueeze(1)
    return {f"recall@{k}": (top[:, :k] == gold).any(1).float().mean().item() for k in ks}


t1 = time.time()
print("full-catalogue eval:", recall_at_k(), f"({time.time()-t1:.1f}s)")
