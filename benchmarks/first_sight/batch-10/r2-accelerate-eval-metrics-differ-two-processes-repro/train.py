"""Sentiment classifier: train + evaluate with Accelerate (launched with torchrun, 2 CPU procs)."""
import csv
import random

import torch
from accelerate import Accelerator
from accelerate.utils import set_seed
from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

POS = ["great", "excellent", "love", "perfect", "sturdy", "recommend", "happy", "fast"]
NEG = ["broken", "terrible", "refund", "slow", "cheap", "disappointed", "awful", "returned"]
FILL = ["the", "this", "product", "arrived", "it", "was", "and", "i", "after", "a", "week",
        "battery", "box", "quality", "price", "my", "kids", "use", "every", "day", "works"]


def make_reviews(n, seed):
    rnd = random.Random(seed)
    rows = []
    for _ in range(n):
        label = rnd.randint(0, 1)
        words = rnd.choices(FILL, k=rnd.randint(6, 20))
        words.insert(rnd.randrange(len(words)), rnd.choice(POS if label else NEG))
        if rnd.random() < 0.1:   # some reviews are sarcastic / mixed
            words.insert(rnd.randrange(len(words)), rnd.choice(NEG if label else POS))
        rows.append((" ".join(words), label))
    return rows


class ReviewDataset(torch.utils.data.Dataset):
    def __init__(self, rows, tokenizer):
        self.enc = tokenizer([t for t, _ in rows], padding="max_length", truncation=True,
                             max_length=32, return_tensors="pt")
        self.labels = torch.tensor([l for _, l in rows])

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.enc.input_ids[i], "attention_mask": self.enc.attention_mask[i],
                "labels": self.labels[i]}


def main():
    accelerator = Accelerator(cpu=True)
    set_seed(0)
    train_rows, test_rows = make_reviews(2000, seed=1), make_reviews(1000, seed=2)

    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator([t for t, _ in train_rows], trainers.WordLevelTrainer(
        special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"]))
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                        cls_token="[CLS]", sep_token="[SEP]")

    config = BertConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2,
                        num_attention_heads=2, intermediate_size=128, max_position_embeddings=32,
                        num_labels=2)
    model = BertForSequenceClassification(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
    train_dl = torch.utils.data.DataLoader(ReviewDataset(train_rows, tokenizer), batch_size=32, shuffle=True)
    test_dl = torch.utils.data.DataLoader(ReviewDataset(test_rows, tokenizer), batch_size=64)
    model, optimizer, train_dl, test_dl = accelerator.prepare(model, optimizer, train_dl, test_dl)
    accelerator.print(f"processes: {accelerator.num_processes}, train {len(train_rows)} / test {len(test_rows)} reviews")

    for epoch in range(3):
        model.train()
        for batch in train_dl:
            loss = model(**batch).loss
            optimizer.zero_grad()
            accelerator.backward(loss)
            optimizer.step()
        accelerator.print(f"epoch {epoch}: last train loss {loss.item():.4f}")

    # ---- evaluation on the held-out test set ----
    model.eval()
    all_preds, all_labels = [], []
    for batch in test_dl:
        with torch.no_grad():
            logits = model(**batch).logits
        preds = logits.argmax(-1)
        all_preds.append(accelerator.gather(preds))
        all_labels.append(accelerator.gather(batch["labels"]))
    preds = torch.cat(all_preds).cpu()
    labels = torch.cat(all_labels).cpu()

    if accelerator.is_main_process:
        acc = (preds == labels).float().mean().item()
        tp = int(((preds == 1) & (labels == 1)).sum()); tn = int(((preds == 0) & (labels == 0)).sum())
        fp = int(((preds == 1) & (labels == 0)).sum()); fn = int(((preds == 0) & (labels == 1)).sum())
        print(f"test accuracy: {acc:.4f}")
        print(f"confusion: tp={tp} tn={tn} fp={fp} fn={fn}")
        with open("test_predictions.csv", "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["review", "label", "pred"])
            for (text, label), p in zip(test_rows, preds.tolist()):
                w.writerow([text, label, p])
        print("wrote test_predictions.csv")
    accelerator.end_training()


if __name__ == "__main__":
    main()
