import os
import random
import time

import torch
import torch.nn as nn
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from torch.utils.data import DataLoader, Dataset
from transformers import AutoTokenizer, PreTrainedTokenizerFast

random.seed(0)
torch.manual_seed(0)
TOK_DIR = "/tmp/r18e_tok"

POS = "great excellent superb loved wonderful fantastic enjoyable brilliant".split()
NEG = "awful terrible boring hated dreadful poor disappointing weak".split()
FILLER = ("the movie film plot actor acting scene story music camera director was is and but a very "
          "really quite it this that of in with on for script ending").split()


def make_review():
    label = random.random() < 0.5
    words = random.choices(FILLER, k=random.randint(20, 80))
    for _ in range(3):
        words.insert(random.randrange(len(words)), random.choice(POS if label else NEG))
    return " ".join(words), int(label)


def build_tokenizer(texts):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(texts, trainers.WordPieceTrainer(vocab_size=500, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", model_max_length=128)
    fast.save_pretrained(TOK_DIR)


class ReviewDataset(Dataset):
    def __init__(self, rows, tokenizer_path, max_length=96):
        self.rows = rows
        self.tokenizer_path = tokenizer_path
        self.max_length = max_length

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, label = self.rows[i]
        tokenizer = AutoTokenizer.from_pretrained(self.tokenizer_path)
        enc = tokenizer(text, truncation=True, max_length=self.max_length)
        return torch.tensor(enc["input_ids"]), label


def collate(batch):
    ids = nn.utils.rnn.pad_sequence([x for x, _ in batch], batch_first=True, padding_value=0)
    return ids, torch.tensor([y for _, y in batch])


class BagClassifier(nn.Module):
    def __init__(self, vocab, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.mlp = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, 2))

    def forward(self, ids):
        mask = (ids != 0).unsqueeze(-1).float()
        pooled = (self.emb(ids) * mask).sum(1) / mask.sum(1).clamp(min=1)
        return self.mlp(pooled)


if __name__ == "__main__":
    rows = [make_review() for _ in range(4000)]
    build_tokenizer([t for t, _ in rows])
    ds = ReviewDataset(rows, TOK_DIR)
    loader = DataLoader(ds, batch_size=64, shuffle=True, num_workers=2, collate_fn=collate, persistent_workers=True)
    model = BagClassifier(vocab=500)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)

    for epoch in range(2):
        t_epoch = time.time()
        data_time = compute_time = 0.0
        correct = seen = 0
        t = time.time()
        for ids, y in loader:
            data_time += time.time() - t
            t = time.time()
            logits = model(ids)
            loss = nn.functional.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == y).sum().item()
            seen += len(y)
            compute_time += time.time() - t
            t = time.time()
        dt = time.time() - t_epoch
        print(f"epoch {epoch}: acc {correct / seen:.3f} loss {loss.item():.4f} | {dt:.1f}s, {seen / dt:.0f} samples/s "
              f"(waiting on data {data_time:.1f}s, compute {compute_time:.2f}s)", flush=True)
