"""Fine-tune a small BERT-style classifier on CPU in bf16 (topic labels from keyword reviews).

Runs on a CPU box without a GPU, so we use bf16 to halve memory and speed things up.
"""
import math
import random
import time

import torch
from torch.utils.data import DataLoader
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast, get_linear_schedule_with_warmup

torch.manual_seed(0)
rng = random.Random(0)

TOPICS = {
    0: ["battery", "charger", "screen", "usb", "cable", "laptop"],
    1: ["shirt", "jacket", "cotton", "sleeve", "fabric", "zipper"],
    2: ["pasta", "sauce", "coffee", "cereal", "snack", "spice"],
    3: ["novel", "author", "chapter", "paperback", "poem", "plot"],
}
FILL = ["the", "a", "was", "is", "very", "good", "bad", "ok", "arrived", "late", "and", "i", "like",
        "my", "this", "it", "really", "price", "for", "quality", "would", "buy", "again", "not"]


def make(n):
    out = []
    for _ in range(n):
        y = rng.randrange(4)
        words = [rng.choice(FILL) for _ in range(rng.randint(8, 24))]
        words.insert(rng.randint(0, len(words)), rng.choice(TOPICS[y]))
        out.append((" ".join(words), y))
    return out


train_data, val_data = make(3000), make(600)

tk = Tokenizer(models.WordPiece(unk_token="[UNK]"))
tk.normalizer = normalizers.BertNormalizer(lowercase=True)
tk.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
tk.train_from_iterator((t for t, _ in train_data),
                       trainers.WordPieceTrainer(vocab_size=300, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
tk.post_processor = processors.BertProcessing(("[SEP]", tk.token_to_id("[SEP]")), ("[CLS]", tk.token_to_id("[CLS]")))
tok = PreTrainedTokenizerFast(tokenizer_object=tk, pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]", sep_token="[SEP]")


def collate(batch):
    enc = tok([t for t, _ in batch], padding=True, return_tensors="pt")
    enc["labels"] = torch.tensor([y for _, y in batch])
    return enc


train_dl = DataLoader(train_data, batch_size=32, shuffle=True, collate_fn=collate)
val_dl = DataLoader(val_data, batch_size=128, collate_fn=collate)

cfg = BertConfig(vocab_size=len(tok), hidden_size=192, num_hidden_layers=3, num_attention_heads=4,
                 intermediate_size=384, max_position_embeddings=64, num_labels=4)
model = BertForSequenceClassification(cfg)
model = model.to(torch.bfloat16)
print(f"model params: {sum(p.numel() for p in model.parameters())/1e6:.2f}M, dtype={next(model.parameters()).dtype}")

EPOCHS = 3
opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.01)
total = EPOCHS * len(train_dl)
sched = get_linear_schedule_with_warmup(opt, int(0.06 * total), total)


@torch.no_grad()
def evaluate():
    model.eval()
    correct, n, loss_sum = 0, 0, 0.0
    for b in val_dl:
        out = model(**b)
        loss_sum += out.loss.float().item() * len(b["labels"])
        correct += (out.logits.argmax(-1) == b["labels"]).sum().item()
        n += len(b["labels"])
    model.train()
    return loss_sum / n, correct / n


step = 0
t0 = time.time()
for epoch in range(EPOCHS):
    model.train()
    for b in train_dl:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            out = model(**b)
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        step += 1
        if step % 25 == 0:
            print(f"epoch {epoch} step {step}/{total} loss {out.loss.item():.4f} lr {sched.get_last_lr()[0]:.2e}")
    vl, va = evaluate()
    print(f"== epoch {epoch} val_loss {vl:.4f} val_acc {va:.3f} (chance {1/4:.2f}, ln4={math.log(4):.3f}) elapsed {time.time()-t0:.0f}s")
