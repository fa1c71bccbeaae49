"""Pre-tokenise the support-chat corpus into fixed-length id shards for LM pre-training.

Step 1 trains a WordPiece tokenizer on the corpus, step 2 encodes all documents with a
process pool (one tokenizer per worker), step 3 writes the packed shards.
"""
import os
import random
import sys
import time
import multiprocessing as mp

import numpy as np
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

WORK = os.environ.get("WORK_DIR", "artifacts")
TOKENIZER_PATH = os.path.join(WORK, "wordpiece-chat.json")
SEQ_LEN = 128
N_DOCS = 40000
N_PROC = 2
CHUNK = 500

_tok = None


def make_corpus(n):
    rnd = random.Random(0)
    subjects = ["my order", "the invoice", "your app", "the refund", "my account", "the courier", "the update"]
    verbs = ["is missing", "was charged twice", "keeps crashing", "never arrived", "got locked", "is late", "broke sync"]
    tails = ["please help", "since monday", "again today", "after the last release", "for the third time", "asap"]
    docs = []
    for i in range(n):
        k = rnd.randint(2, 8)
        sents = [f"{rnd.choice(subjects)} {rnd.choice(verbs)} {rnd.choice(tails)} ticket {rnd.randint(1000, 99999)}"
                 for _ in range(k)]
        docs.append(". ".join(sents) + ".")
    return docs


def train_tokenizer(docs):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=4000, special_tokens=["[PAD]", "[UNK]", "[EOS]"])
    tok.train_from_iterator(docs, trainer=trainer)
    tok.save(TOKENIZER_PATH)
    return tok


def init_worker(tokenizer_path):
    global _tok
    _tok = Tokenizer.from_file(tokenizer_path)


def encode_chunk(docs):
    eos = _tok.token_to_id("[EOS]")
    out = []
    for enc in _tok.encode_batch(docs):
        out.extend(enc.ids)
        out.append(eos)
    return np.asarray(out, dtype=np.uint16)


def main():
    os.makedirs(WORK, exist_ok=True)
    t0 = time.time()
    docs = make_corpus(N_DOCS)
    print(f"[1/3] corpus: {len(docs)} docs ({time.time() - t0:.1f}s)", flush=True)

    tok = train_tokenizer(docs)
    print(f"[1/3] tokenizer trained, vocab={tok.get_vocab_size()} -> {TOKENIZER_PATH}", flush=True)

    chunks = [docs[i:i + CHUNK] for i in range(0, len(docs), CHUNK)]
    print(f"[2/3] encoding {len(chunks)} chunks with {N_PROC} processes ...", flush=True)
    t1 = time.time()
    # spawn, not fork: the Rust tokenizer above already started its thread pool in this process
    ctx = mp.get_context("spawn")
    with ctx.Pool(processes=N_PROC, initializer=init_worker, initargs=(TOKENIZER_PATH)) as pool:
        parts = pool.map(encode_chunk, chunks)
    ids = np.concatenate(parts)
    print(f"[2/3] encoded {ids.size:,} tokens in {time.time() - t1:.1f}s", flush=True)

    n_seq = ids.size // SEQ_LEN
    packed = ids[: n_seq * SEQ_LEN].reshape(n_seq, SEQ_LEN)
    for s, shard in enumerate(np.array_split(packed, 4)):
        np.save(os.path.join(WORK, f"train_{s:02d}.npy"), shard)
    print(f"[3/3] wrote 4 shards, {n_seq} sequences of {SEQ_LEN} tokens", flush=True)


if __name__ == "__main__":
    sys.exit(main())
