"""Fine-tune our in-house mini BERT on dialogue intent, with speaker-role markers in the input."""
import os
import random
import tempfile

import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from torch.utils.data import DataLoader
from transformers import (AutoModelForSequenceClassification, AutoTokenizer, BertConfig,
                          BertForMaskedLM, PreTrainedTokenizerFast, get_linear_schedule_with_warmup)

BASE_DIR = os.path.join(tempfile.gettempdir(), "minibert_base")
INTENTS = ["cancel", "upgrade", "complaint"]
CUES = {"cancel": ["cancel", "stop", "terminate"], "upgrade": ["upgrade", "premium", "faster"],
        "complaint": ["unhappy", "broken", "slow"]}
FILLER = "i want to my plan please can you the service it is and with for this today".split()
random.seed(0)
torch.manual_seed(0)


def ensure_base_checkpoint():
    """Stand-in for the pretrained checkpoint we normally pull from the model registry."""
    if os.path.exists(os.path.join(BASE_DIR, "config.json")):
        return
    corpus = [" ".join(random.choice(FILLER + sum(CUES.values(), [])) for _ in range(20))
              for _ in range(2000)]
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(corpus, trainers.WordPieceTrainer(
        vocab_size=300, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B [SEP]",
        special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    hf_tok = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]",
                                     cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]",
                                     model_max_length=128)
    cfg = BertConfig(vocab_size=len(hf_tok), hidden_size=64, num_hidden_layers=2,
                     num_attention_heads=2, intermediate_size=128, max_position_embeddings=128)
    BertForMaskedLM(cfg).save_pretrained(BASE_DIR)
    hf_tok.save_pretrained(BASE_DIR)


def make_dialogues(n):
    rows = []
    for _ in range(n):
        label = random.randrange(len(INTENTS))
        turns = []
        for t in range(random.randint(2, 4)):
            words = [random.choice(FILLER) for _ in range(random.randint(4, 10))]
            if t == 0:
                words.insert(random.randrange(len(words)), random.choice(CUES[INTENTS[label]]))
            speaker = "[CUSTOMER]" if t % 2 == 0 else "[AGENT]"
            turns.append(f"{speaker} {' '.join(words)}")
        rows.append((" ".join(turns), label))
    return rows


def main():
    ensure_base_checkpoint()
    tokenizer = AutoTokenizer.from_pretrained(BASE_DIR)
    added = tokenizer.add_special_tokens({"additional_special_tokens": ["[CUSTOMER]", "[AGENT]"]})
    print(f"added {added} speaker tokens, tokenizer size now {len(tokenizer)}")
    model = AutoModelForSequenceClassification.from_pretrained(
        BASE_DIR, num_labels=len(INTENTS), id2label=dict(enumerate(INTENTS)))

    train_rows = make_dialogues(3000)

    def collate(batch):
        enc = tokenizer([t for t, _ in batch], padding=True, truncation=True, return_tensors="pt")
        enc["labels"] = torch.tensor([y for _, y in batch])
        return enc

    loader = DataLoader(train_rows, batch_size=32, shuffle=True, collate_fn=collate)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    sched = get_linear_schedule_with_warmup(opt, 20, 2 * len(loader))
    model.train()
    for epoch in range(2):
        for step, batch in enumerate(loader):
            out = model(**batch)
            out.loss.backward()
            opt.step()
            sched.step()
            opt.zero_grad()
            if step % 20 == 0:
                print(f"epoch {epoch} step {step} loss {out.loss.item():.4f}")
    out_dir = os.path.join(tempfile.gettempdir(), "intent_model")
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)


if __name__ == "__main__":
    main()
