"""Fine-tune a small GPT-2 style model on support-chat transcripts (synthetic) with the HF Trainer."""
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers, decoders
from transformers import (
    DataCollatorForLanguageModeling,
    GPT2Config,
    GPT2LMHeadModel,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
)

random.seed(0)
torch.manual_seed(0)

PRODUCTS = ["router", "modem", "smart plug", "camera", "thermostat"]
ISSUES = ["won't connect", "keeps rebooting", "shows a red light", "lost its settings"]
FIXES = ["hold the reset button for ten seconds", "update the firmware from the app",
         "move it closer to the access point", "re-pair it using the QR code"]


def make_dialogues(n):
    out = []
    for _ in range(n):
        p, i, f = random.choice(PRODUCTS), random.choice(ISSUES), random.choice(FIXES)
        out.append(f"User: my {p} {i}. Agent: sorry to hear that, please {f}.")
    return out


train_texts = make_dialogues(1200)
eval_texts = make_dialogues(150)

# byte-level BPE tokenizer trained on the transcripts
bpe = Tokenizer(models.BPE())
bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
bpe.decoder = decoders.ByteLevel()
bpe.train_from_iterator(train_texts, trainers.BpeTrainer(vocab_size=400, special_tokens=["<|endoftext|>"]))
tokenizer = PreTrainedTokenizerFast(
    tokenizer_object=bpe,
    bos_token="<|endoftext|>",
    eos_token="<|endoftext|>",
    unk_token="<|endoftext|>",
    model_max_length=64,
)
tokenizer.pad_token = tokenizer.eos_token
print(f"vocab size: {len(tokenizer)}")


class ChatDataset(torch.utils.data.Dataset):
    def __init__(self, texts):
        self.enc = [tokenizer(t + tokenizer.eos_token, truncation=True, max_length=64) for t in texts]

    def __len__(self):
        return len(self.enc)

    def __getitem__(self, i):
        return {k: v for k, v in self.enc[i].items()}


config = GPT2Config(
    vocab_size=len(tokenizer),
    n_positions=64,
    n_embd=128,
    n_layer=2,
    n_head=4,
    bos_token_id=tokenizer.bos_token_id,
    eos_token_id=tokenizer.eos_token_id,
    pad_token_id=tokenizer.pad_token_id,
)
model = GPT2LMHeadModel(config)
print(f"params: {model.num_parameters() / 1e6:.2f}M")

collator = DataCollatorForLanguageModeling(tokenizer)

args = TrainingArguments(
    output_dir="out_chat_lm",
    per_device_train_batch_size=16,
    per_device_eval_batch_size=32,
    num_train_epochs=2,
    learning_rate=1e-3,
    warmup_steps=10,
    logging_steps=25,
    eval_strategy="epoch",
    save_strategy="no",
    report_to=[],
    use_cpu=True,
)
trainer = Trainer(
    model=model,
    args=args,
    data_collator=collator,
    train_dataset=ChatDataset(train_texts),
    eval_dataset=ChatDataset(eval_texts),
)
trainer.train()
metrics = trainer.evaluate()
print(f"eval loss {metrics['eval_loss']:.4f} ppl {torch.exp(torch.tensor(metrics['eval_loss'])).item():.2f}")

prompt = tokenizer("User: my camera won't connect. Agent:", return_tensors="pt")
out = model.generate(**prompt, max_new_tokens=20, do_sample=False, pad_token_id=tokenizer.pad_token_id)
print(tokenizer.decode(out[0]))
