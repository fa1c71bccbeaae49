import random
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, decoders
from transformers import (GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast,
                          DataCollatorForLanguageModeling, Trainer, TrainingArguments)

random.seed(0)
torch.manual_seed(0)

# support-ticket router: "<ticket text> => <queue>"
INTENTS = {
    "billing": ["refund my order", "charged twice", "invoice is wrong", "cancel payment"],
    "shipping": ["where is my parcel", "package is late", "track my order", "wrong address"],
    "login": ["forgot password", "cannot sign in", "account locked", "reset my pin"],
    "other": ["hello there", "thanks a lot", "great service", "just a question"],
}
PREFIX = ["", "hi ", "please ", "urgent ", "help "]

def make_example():
    queue = random.choice(list(INTENTS))
    return random.choice(PREFIX) + random.choice(INTENTS[queue]), queue

# word-level tokenizer
words = sorted({w for v in INTENTS.values() for s in v for w in s.split()} |
               {p.strip() for p in PREFIX if p} | set(INTENTS) | {"=>"})
vocab = {"<|endoftext|>": 0, **{w: i + 1 for i, w in enumerate(words)}}
tok_model = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<|endoftext|>"))
tok_model.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tok_model.decoder = decoders.WordPiece()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok_model, eos_token="<|endoftext|>",
                                    bos_token="<|endoftext|>", unk_token="<|endoftext|>")
tokenizer.pad_token = tokenizer.eos_token

def fmt(text, queue=None):
    s = f"{text} =>"
    return s if queue is None else f"{s} {queue} {tokenizer.eos_token}"

train_pairs = [make_example() for _ in range(1200)]
test_pairs = [make_example() for _ in range(8)]

class TicketDataset(torch.utils.data.Dataset):
    def __init__(self, pairs):
        self.enc = [tokenizer(fmt(t, q))["input_ids"] for t, q in pairs]
    def __len__(self):
        return len(self.enc)
    def __getitem__(self, i):
        return {"input_ids": self.enc[i]}

config = GPT2Config(vocab_size=len(vocab), n_positions=32, n_embd=64, n_layer=2, n_head=4,
                    bos_token_id=tokenizer.eos_token_id, eos_token_id=tokenizer.eos_token_id,
                    pad_token_id=tokenizer.pad_token_id)
model = GPT2LMHeadModel(config)
print(f"model params: {sum(p.numel() for p in model.parameters())/1e6:.3f}M, vocab={len(vocab)}")

collator = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm=False)
args = TrainingArguments(output_dir="./ticket-router", per_device_train_batch_size=32,
                         num_train_epochs=3, learning_rate=3e-3, warmup_steps=10,
                         logging_steps=10, save_strategy="no", report_to=[], seed=0,
                         disable_tqdm=True, use_cpu=True)
trainer = Trainer(model=model, args=args, train_dataset=TicketDataset(train_pairs), data_collator=collator)
trainer.train()

model.eval()
print("\n=== routing test tickets ===")
exact = 0
for text, queue in test_pairs:
    prompt = tokenizer(fmt(text), return_tensors="pt")
    with torch.no_grad():
        out = model.generate(**prompt, max_new_tokens=12, do_sample=False,
                             eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id)
    new = out[0, prompt["input_ids"].shape[1]:]
    gen = tokenizer.decode(new, skip_special_tokens=True).strip()
    exact += gen == queue
    print(f"{text!r:28} -> {gen!r}  (expected {queue!r}, {len(new)} new tokens)")
print(f"exact match: {exact}/{len(test_pairs)}")
