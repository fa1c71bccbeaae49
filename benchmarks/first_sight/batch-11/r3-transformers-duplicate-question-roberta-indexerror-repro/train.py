"""Duplicate-question detector for the support forum.

Small RoBERTa-architecture encoder (layer sizes from roberta-base, shrunk for
CPU) trained from scratch as a sentence-pair classifier, with the WordPiece
vocabulary we built for the forum corpus.
"""
import random

import torch
from torch.utils.data import DataLoader, Dataset
from transformers import BertTokenizer, RobertaConfig, RobertaForSequenceClassification

TOPICS = {
    "login": "login password reset locked account email code".split(),
    "export": "export csv excel download report columns file".split(),
    "billing": "invoice charge card plan upgrade refund price".split(),
    "sync": "sync phone app offline calendar update device".split(),
    "api": "api token key request limit endpoint webhook".split(),
}
FILLER = "how do i can my the a to is why not when does it after what with in on".split()

# from roberta-base/config.json, sizes reduced for CPU training
ROBERTA_BASE = {
    "architectures": ["RobertaForMaskedLM"], "attention_probs_dropout_prob": 0.1, "bos_token_id": 0,
    "eos_token_id": 2, "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": 768,
    "initializer_range": 0.02, "intermediate_size": 3072, "layer_norm_eps": 1e-05,
    "max_position_embeddings": 514, "model_type": "roberta", "num_attention_heads": 12,
    "num_hidden_layers": 12, "pad_token_id": 1, "type_vocab_size": 1, "vocab_size": 50265,
}
SMALL = {"hidden_size": 128, "intermediate_size": 512, "num_attention_heads": 4, "num_hidden_layers": 2}


def build_tokenizer():
    words = sorted({w for ws in TOPICS.values() for w in ws} | set(FILLER))
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + words
    return BertTokenizer(vocab={w: i for i, w in enumerate(vocab)}, model_max_length=128)


def question(rnd, keywords):
    words = rnd.choices(FILLER, k=rnd.randint(3, 8)) + list(keywords)
    rnd.shuffle(words)
    return " ".join(words)


def make_pairs(n, seed):
    rnd = random.Random(seed)
    names = list(TOPICS)
    rows = []
    for _ in range(n):
        t1 = rnd.choice(names)
        dup = rnd.random() < 0.5
        t2 = t1 if dup else rnd.choice([t for t in names if t != t1])
        k1 = rnd.sample(TOPICS[t1], 3)
        k2 = k1 if dup else rnd.sample(TOPICS[t2], 3)
        rows.append((question(rnd, k1), question(rnd, k2), int(dup)))  # duplicates = rephrasings
    return rows


class PairDataset(Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i]


def main():
    torch.manual_seed(0)
    tokenizer = build_tokenizer()

    def collate(batch):
        q1, q2, y = zip(*batch)
        enc = tokenizer(list(q1), list(q2), padding=True, truncation=True, return_tensors="pt")
        enc["labels"] = torch.tensor(y)
        return enc

    train_dl = DataLoader(PairDataset(make_pairs(4000, 1)), batch_size=32, shuffle=True, collate_fn=collate)
    val_dl = DataLoader(PairDataset(make_pairs(800, 2)), batch_size=128, collate_fn=collate)

    cfg = dict(ROBERTA_BASE, **SMALL)
    cfg.update(vocab_size=len(tokenizer), pad_token_id=tokenizer.pad_token_id,
               bos_token_id=tokenizer.cls_token_id, eos_token_id=tokenizer.sep_token_id, num_labels=2)
    config = RobertaConfig(**{k: v for k, v in cfg.items() if k not in ("architectures", "model_type")})
    model = RobertaForSequenceClassification(config)
    print(f"model: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M params, vocab {len(tokenizer)}", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)

    for epoch in range(4):
        model.train()
        for step, batch in enumerate(train_dl, 1):
            out = model(**batch)
            out.loss.backward()
            opt.step()
            opt.zero_grad()
            if step % 25 == 0:
                print(f"epoch {epoch} step {step}/{len(train_dl)} loss {out.loss.item():.4f}", flush=True)
        model.eval()
        correct = total = 0
        with torch.no_grad():
            for batch in val_dl:
                pred = model(**batch).logits.argmax(-1)
                correct += (pred == batch["labels"]).sum().item()
                total += len(pred)
        print(f"epoch {epoch} | val acc {correct / total:.3f}", flush=True)


if __name__ == "__main__":
    main()
