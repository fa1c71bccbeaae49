import random
import time

import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from torch.utils.data import DataLoader
from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

random.seed(0)
torch.manual_seed(0)

# ---- synthetic review corpus (short texts, 2 labels) --------------------------
POS = "great excellent love wonderful fast friendly perfect recommend happy solid".split()
NEG = "terrible awful hate broken slow rude refund disappointed worst useless".split()
FILL = ("the a product service it was and very this i my order delivery staff item "
        "quality price time again would not really so").split()


def make_review():
    label = random.randint(0, 1)
    words = random.choices(FILL, k=random.randint(8, 30)) + random.choices(POS if label else NEG, k=3)
    random.shuffle(words)
    return " ".join(words), label


train_data = [make_review() for _ in range(6000)]

# ---- tokenizer trained on the corpus ------------------------------------------
tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
tok.normalizer = normalizers.BertNormalizer(lowercase=True)
tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
tok.train_from_iterator((t for t, _ in train_data), trainers.WordPieceTrainer(
    vocab_size=2000, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
tok.post_processor = processors.TemplateProcessing(
    single="[CLS] $A [SEP]", special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))])
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")

config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=128, num_hidden_layers=2,
                    num_attention_heads=4, intermediate_size=512, max_position_embeddings=512,
                    num_labels=2)
model = BertForSequenceClassification(config)


def collate(batch):
    texts, labels = zip(*batch)
    enc = tokenizer(list(texts), truncation=True, padding="max_length",
                    max_length=config.max_position_embeddings, return_tensors="pt")
    enc["labels"] = torch.tensor(labels)
    return enc


loader = DataLoader(train_data, batch_size=32, shuffle=True, collate_fn=collate)
opt = torch.optim.AdamW(model.parameters(), lr=5e-5)

print(f"torch {torch.__version__} | "
      f"params={sum(p.numel() for p in model.parameters())/1e6:.1f}M | steps/epoch={len(loader)}")
model.train()
MAX_STEPS = 8
t0 = time.time()
seen = 0
for step, batch in enumerate(loader):
    out = model(**batch)
    out.loss.backward()
    opt.step()
    opt.zero_grad()
    seen += batch["input_ids"].size(0)
    if step % 2 == 0 or step == MAX_STEPS - 1:
        el = time.time() - t0
        print(f"step {step:3d} | loss {out.loss.item():.4f} | {seen/el:6.1f} samples/s | "
              f"ETA/epoch {len(loader) * el / (step + 1) / 60:.1f} min")
    if step + 1 == MAX_STEPS:
        break
print(f"{MAX_STEPS} steps in {time.time()-t0:.1f}s")
