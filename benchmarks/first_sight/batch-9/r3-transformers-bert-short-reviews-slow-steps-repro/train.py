import random
import time
import torch
from torch.utils.data import DataLoader
from tokenizers import Tokenizer, models, pre_tokenizers, normalizers
from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

random.seed(0)
torch.manual_seed(0)

# ---- product-review sentiment data (short reviews, 5-25 words)
POS = "great love excellent perfect fast amazing happy recommend works nice sturdy".split()
NEG = "broken terrible slow refund awful disappointed cheap waste useless late damaged".split()
FILL = "the it this product item was is and very really my for i a of arrived quality".split()

def review():
    y = random.randint(0, 1)
    words = [random.choice(FILL) for _ in range(random.randint(4, 20))]
    for _ in range(random.randint(1, 3)):
        words.insert(random.randrange(len(words)), random.choice(POS if y else NEG))
    return " ".join(words), y

train = [review() for _ in range(6000)]
print(f"{len(train)} reviews, mean words {sum(len(t.split()) for t, _ in train)/len(train):.1f}")

# ---- tokenizer (word level, BERT-style specials)
vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + sorted(set(POS + NEG + FILL)))}
tk = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
tk.normalizer = normalizers.Lowercase()
tk.pre_tokenizer = pre_tokenizers.Whitespace()
from tokenizers.processors import TemplateProcessing
tk.post_processor = TemplateProcessing(single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tk, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]",
                                    model_max_length=512)

enc = tokenizer([t for t, _ in train], padding="max_length", truncation=True, return_tensors="pt")
labels = torch.tensor([y for _, y in train])
ds = torch.utils.data.TensorDataset(enc["input_ids"], enc["attention_mask"], labels)
loader = DataLoader(ds, batch_size=32, shuffle=True)

config = BertConfig(vocab_size=len(vocab), hidden_size=128, num_hidden_layers=2, num_attention_heads=2,
                    intermediate_size=512, max_position_embeddings=512, num_labels=2)
model = BertForSequenceClassification(config)
opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
print(f"params {sum(p.numel() for p in model.parameters())/1e6:.2f}M, batches/epoch {len(loader)}")

model.train()
t_start = t0 = time.time()
seen = 0
for step, (ids, mask, y) in enumerate(loader, 1):
    out = model(input_ids=ids, attention_mask=mask, labels=y)
    out.loss.backward()
    opt.step()
    opt.zero_grad()
    seen += len(y)
    if step % 5 == 0:
        dt = time.time() - t0
        print(f"step {step:4d}/{len(loader)} loss {out.loss.item():.4f} "
              f"{5/dt:.2f} it/s  {seen/dt:.1f} samples/s")
        t0, seen = time.time(), 0
    if step == 30:
        el = time.time() - t_start
        print(f"30 steps in {el:.1f}s -> ETA for 3 epochs: {el/30*len(loader)*3/60:.1f} min")
        break
