"""Route support tickets to one of 4 queues with a small BERT trained from scratch."""
import random
import time

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

random.seed(0)
torch.manual_seed(0)

QUEUES = ["billing", "login", "shipping", "bug"]
KEYWORDS = {
    "billing": ["invoice", "charged", "refund", "card", "payment"],
    "login": ["password", "locked", "2fa", "login", "account"],
    "shipping": ["parcel", "tracking", "courier", "delivery", "address"],
    "bug": ["crash", "error", "exception", "freeze", "stacktrace"],
}
COMMON = ["hi", "please", "help", "my", "the", "is", "not", "working", "since", "yesterday",
          "thanks", "i", "can", "you", "check", "again", "today", "urgent", "order", "app"]


def load_tickets(n=8000):
    """Stand-in for the helpdesk CSV export."""
    rows = []
    for i in range(n):
        q = random.randrange(4)
        words = random.choices(COMMON, k=random.randint(8, 60)) + random.choices(KEYWORDS[QUEUES[q]], k=3)
        random.shuffle(words)
        rows.append((" ".join(words), q))
    log = " ".join(f"2024-03-0{i % 9 + 1} ERROR worker-{i % 17} exception in handler line {i}"
                   for i in range(25_000))
    rows[4711] = ("app crash again here is the log " + log, 3)
    return rows


def rss_mb():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) // 1024 for l in f if l.startswith("VmRSS"))


tickets = load_tickets()
texts, labels = [t for t, _ in tickets], [q for _, q in tickets]
print(f"{len(texts)} tickets, median {sorted(len(t.split()) for t in texts)[len(texts) // 2]} words", flush=True)

tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.train_from_iterator(texts[:2000], trainers.WordLevelTrainer(
    special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tok.post_processor = processors.TemplateProcessing(
    single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]", model_max_length=128)
print(f"vocab {len(tokenizer)}, rss {rss_mb()} MB", flush=True)

t0 = time.time()
enc = tokenizer(texts, padding=True, return_tensors="pt")
print(f"tokenized in {time.time() - t0:.1f}s: input_ids {tuple(enc.input_ids.shape)}, rss {rss_mb()} MB", flush=True)

ds = torch.utils.data.TensorDataset(enc.input_ids, enc.attention_mask, torch.tensor(labels))
loader = torch.utils.data.DataLoader(ds, batch_size=32, shuffle=True)
config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2,
                    num_attention_heads=2, intermediate_size=128, max_position_embeddings=128,
                    num_labels=len(QUEUES))
model = BertForSequenceClassification(config)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

model.train()
for step, (ids, mask, y) in enumerate(loader):
    out = model(input_ids=ids, attention_mask=mask, labels=y)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    if step % 50 == 0:
        acc = (out.logits.argmax(-1) == y).float().mean().item()
        print(f"step {step:3d}/{len(loader)} loss {out.loss.item():.4f} acc {acc:.2f} "
              f"{time.time() - t0:.1f}s", flush=True)
