"""Canned-reply generator: a small GPT-2 trained from scratch on (ticket -> agent reply) pairs.
The eval at the end generates a reply for each held-out ticket and reports exact match."""
import os
import random
import time

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from torch.utils.data import DataLoader
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

rnd = random.Random(0)
torch.manual_seed(0)
OUT = os.environ.get("OUT_DIR", "runs/reply-gpt2")
MAX_LENGTH = 64

REPLIES = {
    "late": "sorry your parcel is late . we have asked the courier for an update and will email you within 24 hours",
    "broken": "sorry the item arrived damaged . please reply with a photo and we will send a replacement at no cost",
    "refund": "your refund has been approved . the money will be back on your card within 5 working days",
    "password": "we have sent a password reset link to your email . the link is valid for 30 minutes",
    "invoice": "you can download every invoice from the orders page . a copy has also been sent to your email",
    "cancel": "your subscription has been cancelled . you keep access until the end of the current billing period",
}
CUES = {
    "late": ["late", "delayed", "still waiting", "not arrived"], "broken": ["broken", "damaged", "cracked", "smashed"],
    "refund": ["refund", "money back", "reimburse"], "password": ["password", "cannot log in", "locked out"],
    "invoice": ["invoice", "receipt", "vat copy"], "cancel": ["cancel", "unsubscribe", "end my plan"],
}
FILLER = ("hello hi team i my the order number from last week it was for my mother and she really "
          "needs it before the weekend so please could you check what is going on thanks a lot again").split()


def make_ticket():
    intent = rnd.choice(list(REPLIES))
    words = rnd.choices(FILLER, k=rnd.randint(12, 48)) + rnd.choice(CUES[intent]).split()
    rnd.shuffle(words)
    return f"ticket : {' '.join(words)} reply :", REPLIES[intent]


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["<pad>", "<unk>", "<eos>"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", unk_token="<unk>", eos_token="<eos>")


def main():
    train = [make_ticket() for _ in range(2400)]
    test = [make_ticket() for _ in range(200)]
    tokenizer = build_tokenizer([p + " " + r for p, r in train])
    lens = [len(tokenizer(p + " " + r).input_ids) for p, r in train]
    print(f"vocab {len(tokenizer)}  train sequence length mean {sum(lens) / len(lens):.1f} max {max(lens)}")

    config = GPT2Config(vocab_size=len(tokenizer), n_positions=128, n_embd=128, n_layer=2, n_head=4,
                        bos_token_id=tokenizer.eos_token_id, eos_token_id=tokenizer.eos_token_id,
                        pad_token_id=tokenizer.pad_token_id)
    model = GPT2LMHeadModel(config)

    def collate(batch):
        enc = tokenizer([p + " " + r + " <eos>" for p, r in batch], padding=True, return_tensors="pt")
        labels = enc.input_ids.clone()
        labels[enc.attention_mask == 0] = -100
        enc["labels"] = labels
        return enc

    loader = DataLoader(train, batch_size=32, shuffle=True, collate_fn=collate)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(1, 5):
        model.train()
        t0, tot = time.time(), 0.0
        for batch in loader:
            loss = model(**batch).loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        print(f"epoch {epoch} loss {tot / len(loader):.4f} ({time.time() - t0:.1f}s)", flush=True)
    model.save_pretrained(OUT)
    tokenizer.save_pretrained(OUT)

    # ---- held-out eval
    model.eval()
    exact, shown = 0, 0
    for prompt, reply in test:
        enc = tokenizer(prompt, return_tensors="pt")
        with torch.no_grad():
            out = model.generate(**enc, max_length=MAX_LENGTH, do_sample=False,
                                 pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id)
        pred = tokenizer.decode(out[0, enc.input_ids.shape[1]:], skip_special_tokens=True).strip()
        exact += pred == reply
        if pred != reply and shown < 4:
            print(f"MISMATCH\n  ticket: {prompt[:70]}...\n  gold:   {reply}\n  pred:   {pred}")
            shown += 1
    print(f"test exact match: {exact}/{len(test)} = {exact / len(test):.3f}")


if __name__ == "__main__":
    main()
