"""Negation-aware sentiment classifier (small RoBERTa from config), custom loop with warmup + linear decay."""
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, processors
from transformers import (PreTrainedTokenizerFast, RobertaConfig, RobertaForSequenceClassification,
                          get_linear_schedule_with_warmup)

torch.manual_seed(0)
EPOCHS = 5
BATCH = 32
LR = 1e-3
POS = "good great tasty friendly clean cheap fresh".split()
NEG = "bad awful bland rude dirty pricey stale".split()
FILL = "the food was staff service place and really very honestly but also our table".split()


def make_review(rng):
    words = rng.choices(FILL, k=rng.randint(3, 9))
    polarity = 0
    for _ in range(rng.randint(1, 2)):
        pos = rng.random() < 0.5
        negated = rng.random() < 0.25
        phrase = (["not"] if negated else []) + [rng.choice(POS if pos else NEG)]
        words[rng.randint(0, len(words)):0] = phrase
        polarity += 1 if pos != negated else -1
    if polarity == 0:
        return make_review(rng)
    return " ".join(words), int(polarity > 0)


def build_tokenizer():
    vocab = ["<s>", "<pad>", "</s>", "<unk>", "not"] + POS + NEG + FILL
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(vocab)}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0))
    return PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<s>", eos_token="</s>", pad_token="<pad>",
                                   unk_token="<unk>", cls_token="<s>", sep_token="</s>")


def make_loader(n, tokenizer, seed, shuffle):
    rng = random.Random(seed)
    texts, labels = zip(*(make_review(rng) for _ in range(n)))
    enc = tokenizer(list(texts), padding=True, return_tensors="pt")
    ds = torch.utils.data.TensorDataset(enc["input_ids"], enc["attention_mask"], torch.tensor(labels))
    return torch.utils.data.DataLoader(ds, batch_size=BATCH, shuffle=shuffle, num_workers=2 if shuffle else 0)


@torch.no_grad()
def accuracy(model, loader):
    model.eval()
    hits = total = 0
    for ids, mask, y in loader:
        hits += (model(input_ids=ids, attention_mask=mask).logits.argmax(-1) == y).sum().item()
        total += len(y)
    model.train()
    return hits / total


def main():
    tokenizer = build_tokenizer()
    train_loader = make_loader(2000, tokenizer, 1, shuffle=True)
    val_loader = make_loader(1000, tokenizer, 2, shuffle=False)

    config = RobertaConfig(vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                           intermediate_size=128, max_position_embeddings=40, num_labels=2,
                           pad_token_id=tokenizer.pad_token_id, bos_token_id=0, eos_token_id=2)
    model = RobertaForSequenceClassification(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=LR, weight_decay=0.01)
    num_training_steps = len(train_loader)
    scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=int(0.06 * num_training_steps),
                                                num_training_steps=num_training_steps)

    print(f"train batches/epoch={len(train_loader)} epochs={EPOCHS} val acc before training={accuracy(model, val_loader):.3f}")
    for epoch in range(EPOCHS):
        running, n = 0.0, 0
        for ids, mask, y in train_loader:
            out = model(input_ids=ids, attention_mask=mask, labels=y)
            out.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            running += out.loss.item()
            n += 1
        print(f"epoch {epoch + 1}/{EPOCHS} train_loss {running / n:.4f} val_acc {accuracy(model, val_loader):.4f}")

    torch.save(model.state_dict(), "sentiment_negation.pt")


if __name__ == "__main__":
    main()
