"""Pre-train a tiny GPT-2 on our support-chat snippets with the HF Trainer.

Schedule: 50 warmup steps, then cosine
down to a floor of 1e-5.
"""
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from torch.utils.data import Dataset
from transformers import (DataCollatorForLanguageModeling, GPT2Config, GPT2LMHeadModel,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

random.seed(0)
torch.manual_seed(0)

GREETINGS = ["hi", "hello", "hey there", "good morning"]
ISSUES = ["my order has not arrived", "the app crashes on login", "i was charged twice",
          "i cannot reset my password", "the package was damaged", "my coupon does not work"]
REPLIES = ["sorry to hear that , let me check your account", "thanks for reaching out , i will look into it",
           "could you share your order number please", "i have escalated this to our billing team"]


def make_chats(n):
    return [f"user : {random.choice(GREETINGS)} , {random.choice(ISSUES)} . "
            f"agent : {random.choice(REPLIES)} ." for _ in range(n)]


def build_tokenizer(texts):
    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["<pad>", "<unk>", "<eos>"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", unk_token="<unk>",
                                   eos_token="<eos>")


class ChatDataset(Dataset):
    def __init__(self, texts, tokenizer, max_len=40):
        self.enc = [tokenizer(t + " <eos>", truncation=True, max_length=max_len)["input_ids"] for t in texts]

    def __len__(self):
        return len(self.enc)

    def __getitem__(self, i):
        return {"input_ids": self.enc[i]}


def main():
    train_texts, val_texts = make_chats(1500), make_chats(200)
    tokenizer = build_tokenizer(train_texts)
    print(f"vocab size: {len(tokenizer)}")

    config = GPT2Config(vocab_size=len(tokenizer), n_positions=64, n_embd=64, n_layer=2, n_head=4,
                        pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                        bos_token_id=tokenizer.eos_token_id)
    model = GPT2LMHeadModel(config)
    print(f"model params: {sum(p.numel() for p in model.parameters()) / 1e3:.1f}K")

    args = TrainingArguments(
        output_dir="out_chat_gpt2",
        num_train_epochs=3,
        per_device_train_batch_size=32,
        per_device_eval_batch_size=64,
        learning_rate=1e-3,
        weight_decay=0.01,
        warmup_steps=50,
        lr_scheduler_type="cosine_with_min_lr",
        lr_scheduler_kwargs={"eta_min": 1e-5},
        eval_strategy="epoch",
        save_strategy="epoch",
        save_total_limit=1,
        logging_steps=25,
        report_to="none",
        use_cpu=True,
    )
    trainer = Trainer(
        model=model,
        args=args,
        train_dataset=ChatDataset(train_texts, tokenizer),
        eval_dataset=ChatDataset(val_texts, tokenizer),
        data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False),
    )
    trainer.train()
    trainer.save_model("out_chat_gpt2/final")


if __name__ == "__main__":
    main()
