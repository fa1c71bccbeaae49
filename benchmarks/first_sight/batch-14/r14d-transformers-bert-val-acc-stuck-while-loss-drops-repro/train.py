import random
import time
import torch
from torch.utils.data import DataLoader
from tokenizers import Tokenizer, models, pre_tokenizers
from tokenizers.processors import TemplateProcessing
from transformers import (BertConfig, BertForSequenceClassification,
                          DataCollatorWithPadding, PreTrainedTokenizerFast,
                          get_linear_schedule_with_warmup)

random.seed(0)
torch.manual_seed(0)
torch.set_num_threads(2)

TOPICS = ["billing", "shipping", "returns", "account"]
KEYWORDS = {
    "billing": ["invoice", "charged", "refund", "card", "payment", "twice", "vat", "receipt"],
    "shipping": ["parcel", "courier", "tracking", "delivery", "late", "address", "dispatch", "lost"],
    "returns": ["return", "label", "exchange", "damaged", "wrong", "size", "broken", "faulty"],
    "account": ["password", "login", "email", "locked", "reset", "profile", "username", "verify"],
}
FILLER = ("hi hello please help my order the a i have an issue with this it was is not "
          "can you thanks again today yesterday still why when".split())


def make_ticket():
    label = random.randrange(len(TOPICS))
    words = random.choices(FILLER, k=random.randint(6, 18))
    for _ in range(random.randint(1, 3)):
        words.insert(random.randrange(len(words) + 1), random.choice(KEYWORDS[TOPICS[label]]))
    return " ".join(words), label


def build_tokenizer(texts):
    vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
    for t in texts:
        for w in t.split():
            vocab.setdefault(w, len(vocab))
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = TemplateProcessing(single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]")


def encode(tokenizer, rows):
    out = []
    for text, label in rows:
        enc = tokenizer(text, truncation=True, max_length=48)
        enc["labels"] = label
        out.append(dict(enc))
    return out


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct, total, loss_sum = 0, 0, 0.0
    for batch in loader:
        outputs = model(**batch)
        preds = outputs[0].argmax(dim=-1)
        correct += (preds == batch["labels"]).sum().item()
        total += batch["labels"].size(0)
        loss_sum += outputs.loss.item() * batch["labels"].size(0)
    return correct / total, loss_sum / total


def main():
    train_rows = [make_ticket() for _ in range(4000)]
    val_rows = [make_ticket() for _ in range(800)]
    tokenizer = build_tokenizer([t for t, _ in train_rows])
    collator = DataCollatorWithPadding(tokenizer)
    train_dl = DataLoader(encode(tokenizer, train_rows), batch_size=32, shuffle=True, collate_fn=collator)
    val_dl = DataLoader(encode(tokenizer, val_rows), batch_size=64, collate_fn=collator)

    config = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2,
                        num_attention_heads=4, intermediate_size=256, max_position_embeddings=64,
                        num_labels=len(TOPICS),
                        id2label=dict(enumerate(TOPICS)), label2id={t: i for i, t in enumerate(TOPICS)})
    model = BertForSequenceClassification(config)
    epochs = 3
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.01)
    sched = get_linear_schedule_with_warmup(opt, 50, epochs * len(train_dl))

    for epoch in range(1, epochs + 1):
        model.train()
        t0 = time.time()
        for step, batch in enumerate(train_dl, 1):
            out = model(**batch)
            out.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            if step % 40 == 0:
                print(f"epoch {epoch} step {step}/{len(train_dl)} loss {out.loss.item():.4f} "
                      f"lr {sched.get_last_lr()[0]:.2e}")
        acc, vloss = evaluate(model, val_dl)
        print(f"== epoch {epoch} done in {time.time() - t0:.0f}s | val_loss {vloss:.4f} | val_acc {acc:.4f}")

    val_labels = torch.tensor([l for _, l in val_rows])
    print("val label distribution:", {TOPICS[i]: int((val_labels == i).sum()) for i in range(len(TOPICS))})


if __name__ == "__main__":
    main()
