"""Chat-style SFT of a small causal LM. The base tokenizer/model are built locally
(stand-in for our internal pretrained checkpoint), then we add role tokens and fine-tune."""
import random
import time

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers, decoders
from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

random.seed(1)
torch.manual_seed(1)
torch.set_num_threads(1)

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
FRUITS = ["apples", "pears", "plums", "figs", "limes", "kiwis"]


def sample_dialog():
    n, f, k = random.choice(NAMES), random.choice(FRUITS), random.randint(2, 9)
    q = f"how many {f} does {n} have if {n} buys {k} more and had {k} before"
    a = f"{n} has {2 * k} {f}"
    return q, a


# ---------------- base tokenizer + model (pretend this is the pretrained checkpoint) -------------
corpus = [" ".join(sample_dialog()) for _ in range(2000)]
bpe = Tokenizer(models.BPE(unk_token="<unk>"))
bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
bpe.decoder = decoders.ByteLevel()
bpe.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=300, special_tokens=["<unk>", "<s>", "</s>", "<pad>"],
                                                    initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, unk_token="<unk>", bos_token="<s>",
                                    eos_token="</s>", pad_token="<pad>")
base_cfg = LlamaConfig(vocab_size=len(tokenizer), hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                       num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=128,
                       bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                       pad_token_id=tokenizer.pad_token_id)
model = LlamaForCausalLM(base_cfg)
print(f"base vocab={len(tokenizer)} params={sum(p.numel() for p in model.parameters())/1e6:.2f}M")

# ---------------- SFT setup ----------------
num_added = tokenizer.add_special_tokens({"additional_special_tokens": ["<|user|>", "<|assistant|>", "<|end|>"]})
print(f"added {num_added} chat tokens, tokenizer size now {len(tokenizer)}")
USER, ASSIST, END = "<|user|>", "<|assistant|>", "<|end|>"


def format_dialog(q, a):
    return f"{USER}{q}{END}{ASSIST}{a}{END}"


class SFTDataset(torch.utils.data.Dataset):
    def __init__(self, n):
        self.items = [sample_dialog() for _ in range(n)]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        q, a = self.items[i]
        prompt_ids = tokenizer(f"{USER}{q}{END}{ASSIST}", add_special_tokens=False)["input_ids"]
        full_ids = tokenizer(format_dialog(q, a), add_special_tokens=False)["input_ids"]
        labels = [-100] * len(prompt_ids) + full_ids[len(prompt_ids):]
        return torch.tensor(full_ids), torch.tensor(labels)


def collate(batch):
    ids = torch.nn.utils.rnn.pad_sequence([b[0] for b in batch], batch_first=True,
                                          padding_value=tokenizer.pad_token_id)
    labels = torch.nn.utils.rnn.pad_sequence([b[1] for b in batch], batch_first=True, padding_value=-100)
    return {"input_ids": ids, "attention_mask": (ids != tokenizer.pad_token_id).long(), "labels": labels}


train_loader = torch.utils.data.DataLoader(SFTDataset(2000), batch_size=32, shuffle=True, collate_fn=collate)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

model.train()
t0 = time.time()
for epoch in range(2):
    for step, batch in enumerate(train_loader):
        loss = model(**batch).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % 20 == 0:
            print(f"epoch {epoch} step {step} loss {loss.item():.4f} ({time.time()-t0:.1f}s)")

model.eval()
prompt = f"{USER}how many figs does bob have if bob buys 4 more and had 4 before{END}{ASSIST}"
enc = tokenizer(prompt, return_tensors="pt", add_special_tokens=False)
out = model.generate(**enc, max_new_tokens=12, do_sample=False,
                     eos_token_id=tokenizer.convert_tokens_to_ids(END))
print("sample:", tokenizer.decode(out[0, enc["input_ids"].shape[1]:]))
