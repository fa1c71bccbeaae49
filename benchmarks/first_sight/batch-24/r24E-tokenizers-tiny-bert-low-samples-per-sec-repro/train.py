"""Intent classification of short chat messages with a small BERT trained from scratch (plain PyTorch loop)."""
import random
import time

import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from torch.utils.data import DataLoader, Dataset
from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

torch.manual_seed(0)
rng = random.Random(0)

INTENTS = {
    "refund": ["i want my money back", "please refund the order", "how do i get a refund", "return and refund"],
    "shipping": ["where is my parcel", "when will it arrive", "tracking number please", "delivery is late"],
    "account": ["reset my password", "cannot log in", "change my email address", "delete my account"],
    "billing": ["charged twice", "update my card", "invoice is wrong", "why was i billed"],
}
NOISE = "hi hello thanks please urgent asap today again sorry ok so um yes".split()
LABELS = sorted(INTENTS)


def message():
    y = rng.randrange(len(LABELS))
    words = rng.choice(INTENTS[LABELS[y]]).split()
    words = rng.sample(NOISE, rng.randint(0, 4)) + words + rng.sample(NOISE, rng.randint(0, 3))
    return " ".join(words), y


train_rows = [message() for _ in range(640)]
val_rows = [message() for _ in range(128)]

wp = Tokenizer(models.WordPiece(unk_token="[UNK]"))
wp.normalizer = normalizers.BertNormalizer(lowercase=True)
wp.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
wp.train_from_iterator((t for t, _ in train_rows), trainers.WordPieceTrainer(
    vocab_size=300, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"], show_progress=False))
wp.post_processor = processors.BertProcessing(("[SEP]", wp.token_to_id("[SEP]")), ("[CLS]", wp.token_to_id("[CLS]")))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wp, pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]",
                                    sep_token="[SEP]", model_max_length=512)


class Messages(Dataset):
    def __init__(self, rows):
        self.rows = rows

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        text, y = self.rows[i]
        enc = tokenizer(text, padding="max_length", truncation=True, return_tensors="pt")
        return {"input_ids": enc["input_ids"][0], "attention_mask": enc["attention_mask"][0], "labels": torch.tensor(y)}


train_dl = DataLoader(Messages(train_rows), batch_size=32, shuffle=True)
val_dl = DataLoader(Messages(val_rows), batch_size=64)

model = BertForSequenceClassification(BertConfig(
    vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=256,
    max_position_embeddings=512, num_labels=len(LABELS), pad_token_id=tokenizer.pad_token_id))
opt = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.01)
print(f"params {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M, threads {torch.get_num_threads()}")

for epoch in range(1):
    model.train()
    t0, seen = time.time(), 0
    for step, batch in enumerate(train_dl):
        loss = model(**batch).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
        seen += batch["labels"].numel()
        if step % 5 == 0:
            print(f"epoch {epoch} step {step:3d} loss {loss.item():.4f} {seen / (time.time() - t0):6.1f} samples/s")
    train_time = time.time() - t0

    model.eval()
    correct = 0
    with torch.no_grad():
        for batch in val_dl:
            correct += (model(**batch).logits.argmax(-1) == batch["labels"]).sum().item()
    print(f"epoch {epoch} done in {train_time:.1f}s ({len(train_rows) / train_time:.1f} samples/s), "
          f"val acc {correct / len(val_rows):.3f}")
