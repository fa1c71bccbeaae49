import random
import torch
from torch.utils.data import Dataset, DataLoader
from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

random.seed(0)
torch.manual_seed(0)

# ---- build a small word-level vocab from our support-ticket corpus ----
WORDS = ("printer paper jam error network wifi down slow laptop battery screen broken "
         "password reset login failed email outlook sync vpn connect timeout license "
         "expired install update crash keyboard mouse monitor flicker sound driver").split()
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
with open("vocab.txt", "w") as f:
    f.write("\n".join(SPECIAL + WORDS) + "\n")

tokenizer = BertTokenizerFast(vocab="vocab.txt", do_lower_case=True)
# speaker tags used in the chat transcripts
tokenizer.add_special_tokens({"additional_special_tokens": ["[AGENT]", "[CUSTOMER]"]})

LABELS = ["hardware", "network", "account", "software"]
TOPIC_WORDS = {
    "hardware": "printer paper jam laptop battery screen broken keyboard mouse monitor flicker".split(),
    "network": "network wifi down slow vpn connect timeout".split(),
    "account": "password reset login failed email outlook sync".split(),
    "software": "license expired install update crash sound driver".split(),
}


def make_ticket():
    label = random.randrange(len(LABELS))
    words = random.choices(TOPIC_WORDS[LABELS[label]], k=random.randint(4, 12))
    turns = []
    for i in range(0, len(words), 3):
        speaker = "[CUSTOMER]" if (i // 3) % 2 == 0 else "[AGENT]"
        turns.append(speaker + " " + " ".join(words[i:i + 3]))
    return " ".join(turns), label


class TicketDataset(Dataset):
    def __init__(self, n):
        self.items = [make_ticket() for _ in range(n)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx]


def collate(batch):
    texts, labels = zip(*batch)
    enc = tokenizer(list(texts), padding=True, truncation=True, max_length=64, return_tensors="pt")
    enc["labels"] = torch.tensor(labels)
    return enc


train_ds = TicketDataset(2000)
loader = DataLoader(train_ds, batch_size=32, shuffle=True, collate_fn=collate)

config = BertConfig(
    vocab_size=tokenizer.vocab_size,
    hidden_size=64,
    num_hidden_layers=2,
    num_attention_heads=4,
    intermediate_size=128,
    max_position_embeddings=128,
    num_labels=len(LABELS),
    pad_token_id=tokenizer.pad_token_id,
)
model = BertForSequenceClassification(config)
print(f"vocab size: {tokenizer.vocab_size}, params: {sum(p.numel() for p in model.parameters()):,}")
print("sample:", train_ds[0][0])
print("ids:", tokenizer(train_ds[0][0])["input_ids"])

optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
model.train()
for epoch in range(3):
    total = 0.0
    for step, batch in enumerate(loader):
        out = model(**batch)
        out.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        total += out.loss.item()
        if step % 20 == 0:
            print(f"epoch {epoch} step {step} loss {out.loss.item():.4f}")
    print(f"epoch {epoch} mean loss {total / len(loader):.4f}")
