import random

import torch
from torch.utils.data import DataLoader, Dataset
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (DataCollatorWithPadding, GPT2Config, GPT2ForSequenceClassification,
                          PreTrainedTokenizerFast, get_linear_schedule_with_warmup)

random.seed(0)
INTENTS = {
    "billing": "invoice charge refund payment card bill overcharged",
    "shipping": "package delivery tracking shipped arrive courier late",
    "account": "password login email username locked reset profile",
    "technical": "crash error bug app freeze update broken",
}
COMMON = "hi hello please i my the is was a to can you help with need it not why".split()
LABELS = sorted(INTENTS)


def make_ticket():
    intent = random.choice(LABELS)
    words = random.choices(COMMON, k=random.randint(4, 18))
    for _ in range(random.randint(1, 3)):
        words.insert(random.randrange(len(words)), random.choice(INTENTS[intent].split()))
    return " ".join(words), LABELS.index(intent)


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["<unk>", "<|endoftext|>"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>",
                                   eos_token="<|endoftext|>", bos_token="<|endoftext|>")


class TicketDataset(Dataset):
    def __init__(self, rows, tokenizer):
        self.enc = tokenizer([t for t, _ in rows], truncation=True, max_length=64)
        self.labels = [l for _, l in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: v[i] for k, v in self.enc.items()}
        item["labels"] = self.labels[i]
        return item


def main():
    train_rows = [make_ticket() for _ in range(3000)]
    eval_rows = [make_ticket() for _ in range(300)]
    tokenizer = build_tokenizer([t for t, _ in train_rows])
    tokenizer.pad_token = tokenizer.eos_token

    config = GPT2Config(vocab_size=len(tokenizer), n_positions=64, n_embd=128, n_layer=2, n_head=4,
                        num_labels=len(LABELS), bos_token_id=tokenizer.bos_token_id,
                        eos_token_id=tokenizer.eos_token_id)
    model = GPT2ForSequenceClassification(config)
    print(f"model params: {model.num_parameters()/1e6:.2f}M, labels: {LABELS}")

    collator = DataCollatorWithPadding(tokenizer)
    train_loader = DataLoader(TicketDataset(train_rows, tokenizer), batch_size=32, shuffle=True,
                              collate_fn=collator)
    eval_loader = DataLoader(TicketDataset(eval_rows, tokenizer), batch_size=64, collate_fn=collator)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
    num_epochs = 3
    scheduler = get_linear_schedule_with_warmup(optimizer, 50, num_epochs * len(train_loader))

    for epoch in range(num_epochs):
        model.train()
        for step, batch in enumerate(train_loader):
            out = model(**batch)
            out.loss.backward()
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            if step % 20 == 0:
                print(f"epoch {epoch} step {step}/{len(train_loader)} loss {out.loss.item():.4f}",
                      flush=True)
        model.eval()
        correct = 0
        with torch.no_grad():
            for batch in eval_loader:
                labels = batch.pop("labels")
                correct += (model(**batch).logits.argmax(-1) == labels).sum().item()
        print(f"epoch {epoch} eval accuracy {correct / len(eval_rows):.4f}", flush=True)
    model.save_pretrained("out/gpt2-intent")
    tokenizer.save_pretrained("out/gpt2-intent")

if __name__ == "__main__":
    main()
