import torch
import torch.nn.functional as F
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast

torch.manual_seed(0)

corpus = [
    "how do i reset my password",
    "reset password",
    "login failed",
    "delete account",
    "hi",
    "i was charged twice for the same order last month and nobody from support has answered my three emails about getting the duplicate charge reversed to my card",
    "the invoice for march is missing",
    "cancel my subscription please",
    "my package arrived damaged and the box was open when it was delivered to the front door",
    "where can i download the mobile app",
    "refund not received after two weeks even though the return was confirmed by your warehouse team",
    "change the email address on my account",
    "the app crashes when i open settings",
]

words = sorted({w for s in corpus for w in s.split()})
vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
for w in words:
    vocab[w] = len(vocab)
tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]")

config = BertConfig(vocab_size=len(vocab), hidden_size=128, num_hidden_layers=2,
                    num_attention_heads=4, intermediate_size=256)
encoder = BertModel(config).eval()


@torch.no_grad()
def embed(texts):
    enc = tokenizer(texts, padding=True, return_tensors="pt")
    out = encoder(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"])
    emb = out.last_hidden_state.mean(dim=1)
    return F.normalize(emb, dim=-1)


index = embed(corpus)
print(f"indexed {index.shape[0]} docs, dim={index.shape[1]}")

for i, q in enumerate(corpus):
    qv = embed([q])
    scores = (qv @ index.T).squeeze(0)
    best = scores.argmax().item()
    print(f"query {i}: self-score {scores[i].item():.4f} top1 doc {best} ({scores[best].item():.4f}) {'OK' if best == i else 'MISMATCH'}")

pair = embed(["how do i reset my password", corpus[5]])
alone = embed(["how do i reset my password"])
print("same sentence, cosine(alone vs in batch) =", round(F.cosine_similarity(alone, pair[:1]).item(), 4))
