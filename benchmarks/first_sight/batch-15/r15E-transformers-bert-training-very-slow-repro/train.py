import random
import time

import torch
from torch.utils.data import DataLoader, Dataset
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

random.seed(0)
torch.manual_seed(0)

POS = ["great", "excellent", "lovely", "fantastic", "superb", "enjoyable", "wonderful"]
NEG = ["awful", "terrible", "boring", "dreadful", "poor", "disappointing", "bad"]
FILLER = ("the movie was really quite a and plot acting story cast music scenes ending "
          "director film i thought it felt overall but some parts were at times very").split()


def make_review():
    label = random.randint(0, 1)
    words = random.choices(FILLER, k=random.randint(8, 24))
    for _ in range(random.randint(1, 3)):
        words.insert(random.randrange(len(words)), random.choice(POS if label else NEG))
    return " ".join(words), label


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"])
    tok.train_from_iterator(texts, trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


class ReviewDataset(Dataset):
    def __init__(self, samples):
        self.samples = samples

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, idx):
        return self.samples[idx]


def main():
    train = [make_review() for _ in range(4000)]
    val = [make_review() for _ in range(500)]
    tokenizer = build_tokenizer([t for t, _ in train])
    print(f"vocab size: {tokenizer.vocab_size}")

    def collate(batch):
        texts, labels = zip(*batch)
        enc = tokenizer(list(texts), padding="max_length", truncation=True,
                        max_length=512, return_tensors="pt")
        enc["labels"] = torch.tensor(labels)
        return enc

    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=128, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=256, max_position_embeddings=512,
                        num_labels=2)
    model = BertForSequenceClassification(config)
    print(f"params: {sum(p.numel() for p in model.parameters())/1e6:.2f}M")

    train_loader = DataLoader(ReviewDataset(train), batch_size=32, shuffle=True, collate_fn=collate)
    val_loader = DataLoader(ReviewDataset(val), batch_size=64, collate_fn=collate)
    optim = torch.optim.AdamW(model.parameters(), lr=5e-4)

    max_steps = 40
    model.train()
    t0 = time.time()
    for step, batch in enumerate(train_loader, 1):
        out = model(**batch)
        out.loss.backward()
        optim.step()
        optim.zero_grad()
        if step % 10 == 0:
            el = time.time() - t0
            print(f"step {step}/{len(train_loader)} loss {out.loss.item():.4f} "
                  f"{el/step:.2f} s/it  {step*32/el:.1f} samples/s", flush=True)
        if step >= max_steps:
            break
    est = (time.time() - t0) / max_steps * len(train_loader)
    print(f"estimated time per epoch: {est/60:.1f} min")

    model.eval()
    correct = 0
    with torch.no_grad():
        for batch in val_loader:
            logits = model(**{k: v for k, v in batch.items() if k != "labels"}).logits
            correct += (logits.argmax(-1) == batch["labels"]).sum().item()
    print(f"val acc after {max_steps} steps: {correct/len(val):.3f}")


if __name__ == "__main__":
    main()
