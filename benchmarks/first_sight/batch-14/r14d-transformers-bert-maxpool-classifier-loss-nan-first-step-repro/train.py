import random
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from transformers import BertConfig, BertModel

random.seed(0)
torch.manual_seed(0)
torch.set_num_threads(2)

LABELS = ["negative", "neutral", "positive"]
WORDS = {0: ["awful", "broken", "refund", "worst", "slow"], 1: ["okay", "average", "fine", "arrived"],
         2: ["great", "love", "perfect", "fast", "excellent"]}
FILL = "the item was and it i my order this seller shipping box product really very".split()
VOCAB = ["[PAD]", "[CLS]", "[SEP]"] + sorted({w for ws in WORDS.values() for w in ws} | set(FILL))
STOI = {w: i for i, w in enumerate(VOCAB)}


def make_example():
    y = random.randrange(3)
    words = random.choices(FILL, k=random.randint(4, 20))
    words.insert(random.randrange(len(words)), random.choice(WORDS[y]))
    return [1] + [STOI[w] for w in words] + [2], y


def collate(batch):
    L = max(len(ids) for ids, _ in batch)
    ids = torch.tensor([x + [0] * (L - len(x)) for x, _ in batch])
    return ids, (ids != 0).long(), torch.tensor([y for _, y in batch])


class MaxPoolClassifier(nn.Module):
    def __init__(self, config, n_labels):
        super().__init__()
        self.encoder = BertModel(config, add_pooling_layer=False)
        self.dropout = nn.Dropout(0.1)
        self.classifier = nn.Linear(config.hidden_size, n_labels)

    def forward(self, input_ids, attention_mask):
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        pad_bias = (1.0 - attention_mask.unsqueeze(-1).to(hidden.dtype)) * float("-inf")
        pooled = (hidden + pad_bias).max(dim=1).values
        return self.classifier(self.dropout(pooled))


def main():
    train = [make_example() for _ in range(3000)]
    val = [make_example() for _ in range(500)]
    dl = DataLoader(train, batch_size=32, shuffle=True, collate_fn=collate)
    vdl = DataLoader(val, batch_size=100, collate_fn=collate)
    config = BertConfig(vocab_size=len(VOCAB), hidden_size=96, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=192, max_position_embeddings=64)
    model = MaxPoolClassifier(config, len(LABELS))
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    for epoch in range(1, 3):
        model.train()
        for step, (ids, mask, y) in enumerate(dl, 1):
            logits = model(ids, mask)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            if step % 20 == 0 or (epoch == 1 and step <= 3):
                print(f"epoch {epoch} step {step} | loss {loss.item():.4f} | grad_norm {gn.item():.4f}")
        model.eval()
        correct = 0
        with torch.no_grad():
            for ids, mask, y in vdl:
                correct += (model(ids, mask).argmax(1) == y).sum().item()
        print(f"=== epoch {epoch} | val_acc {correct / len(val):.4f}")


if __name__ == "__main__":
    main()
