"""Sentiment classifier: WordPiece tokenizer trained on our corpus + small BERT, CPU training."""
import random
import time

import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from torch.utils.data import DataLoader, TensorDataset
from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

torch.set_num_threads(2)
torch.manual_seed(0)
random.seed(0)

POS = "great excellent love wonderful perfect amazing fast reliable happy recommend".split()
NEG = "terrible awful hate broken slow refund disappointed poor useless worst".split()
FILLER = ("the product arrived on time and i used it for a week with my family at home it was "
          "really quite very box item order price quality delivery seller battery screen size").split()


def make_review():
    label = random.randint(0, 1)
    words = random.choices(FILLER, k=random.randint(8, 30))
    for _ in range(random.randint(1, 3)):
        words.insert(random.randrange(len(words)), random.choice(POS if label else NEG))
    return " ".join(words), label


train = [make_review() for _ in range(480)]  # subset for a first timing run
val = [make_review() for _ in range(200)]

# --- tokenizer -------------------------------------------------------------
tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
tok.normalizer = normalizers.BertNormalizer(lowercase=True)
tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
tok.train_from_iterator((t for t, _ in train), trainers.WordPieceTrainer(
    vocab_size=2000, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
tok.post_processor = processors.TemplateProcessing(
    single="[CLS] $A [SEP]", special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))])
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]",
                                    cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]",
                                    model_max_length=512)
print(f"vocab size {tokenizer.vocab_size}")


def encode(rows):
    enc = tokenizer([t for t, _ in rows], padding="max_length", truncation=True, return_tensors="pt")
    return TensorDataset(enc["input_ids"], enc["attention_mask"], torch.tensor([l for _, l in rows]))


train_ds, val_ds = encode(train), encode(val)
train_dl = DataLoader(train_ds, batch_size=16, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=64)

# --- model -----------------------------------------------------------------
config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                    intermediate_size=512, max_position_embeddings=512, num_labels=2)
model = BertForSequenceClassification(config)
print(f"model params {sum(p.numel() for p in model.parameters()) / 1e6:.1f}M")
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)

model.train()
t_start = time.time()
seen = 0
for step, (ids, mask, labels) in enumerate(train_dl, 1):
    out = model(input_ids=ids, attention_mask=mask, labels=labels)
    opt.zero_grad()
    out.loss.backward()
    opt.step()
    seen += len(labels)
    if step % 10 == 0:
        elapsed = time.time() - t_start
        eta = (len(train_dl) - step) * elapsed / step
        print(f"step {step:3d}/{len(train_dl)} | loss {out.loss.item():.4f} | {seen / elapsed:.1f} samples/s | "
              f"epoch ETA {eta:.0f}s", flush=True)

model.eval()
correct = 0
with torch.no_grad():
    for ids, mask, labels in val_dl:
        correct += (model(input_ids=ids, attention_mask=mask).logits.argmax(-1) == labels).sum().item()
print(f"val acc after 1 epoch ({step} steps): {correct / len(val_ds):.4f} | train throughput {seen / (time.time() - t_start):.1f} samples/s")
