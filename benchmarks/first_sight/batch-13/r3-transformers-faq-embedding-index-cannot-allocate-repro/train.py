"""Build the semantic-search index for the support FAQ.

Encodes every FAQ question with our small BERT encoder (mean pooling over the
attention mask), L2-normalises the vectors and checks retrieval on paraphrased
queries before writing the index to disk.
"""
import random
import time

import numpy as np
import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

random.seed(0)
torch.manual_seed(0)

N_DOCS = 24_000
MAX_LEN = 48

PRODUCTS = ["router", "invoice", "password", "app", "printer", "subscription", "card",
            "account", "delivery", "refund", "voucher", "laptop", "tablet", "modem", "plan"]
ACTIONS = ["reset", "cancel", "change", "update", "track", "activate", "download", "pay",
           "return", "renew", "connect", "transfer", "close", "verify", "upgrade"]
TAILS = ["on my phone", "from abroad", "without the old email", "for a business account",
         "after the last update", "before the due date", "in the web portal", "for my family",
         "if the code expired", "when the page keeps loading", "with a prepaid card", ""]


def make_faq(n):
    docs = []
    for i in range(n):
        a, p, t = random.choice(ACTIONS), random.choice(PRODUCTS), random.choice(TAILS)
        docs.append(f"how do i {a} my {p} {t} (article {i})".replace("  ", " "))
    return docs


def build_tokenizer(texts):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(texts, trainers.WordPieceTrainer(
        vocab_size=3000, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")


def load_encoder(vocab_size):
    # stand-in for from_pretrained("checkpoints/faq-bert-mini")
    cfg = BertConfig(vocab_size=vocab_size, hidden_size=128, num_hidden_layers=2,
                     num_attention_heads=4, intermediate_size=512, max_position_embeddings=64)
    return BertModel(cfg, add_pooling_layer=False).eval()


@torch.no_grad()
def embed(model, tokenizer, texts):
    enc = tokenizer(texts, padding=True, truncation=True, max_length=MAX_LEN, return_tensors="pt")
    out = model(**enc).last_hidden_state
    mask = enc["attention_mask"].unsqueeze(-1).float()
    vecs = (out * mask).sum(1) / mask.sum(1)
    return torch.nn.functional.normalize(vecs, dim=-1)


def main():
    docs = make_faq(N_DOCS)
    tokenizer = build_tokenizer(docs)
    model = load_encoder(len(tokenizer))
    print(f"{len(docs)} FAQ entries, vocab {len(tokenizer)}, "
          f"encoder params {sum(p.numel() for p in model.parameters()):,}")

    t0 = time.time()
    index = embed(model, tokenizer, docs)
    print(f"encoded {index.shape[0]} docs into {index.shape[1]}-d vectors in {time.time() - t0:.1f}s")

    queries = [d.replace("how do i", "i want to").rsplit(" (article", 1)[0] for d in docs[:200]]
    q = embed(model, tokenizer, queries)
    top1 = (q @ index.T).argmax(1)
    hits = sum(docs[j].startswith(docs[i].rsplit(" (article", 1)[0]) for i, j in enumerate(top1.tolist()))
    print(f"paraphrase top-1 topic hit rate: {hits / len(queries):.3f}")

    np.save("/tmp/faq_index.npy", index.numpy())
    print("index written to /tmp/faq_index.npy")


if __name__ == "__main__":
    main()
