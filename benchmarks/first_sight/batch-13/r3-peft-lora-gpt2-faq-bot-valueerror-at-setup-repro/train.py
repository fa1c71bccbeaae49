"""LoRA SFT of our small GPT-2-style model on FAQ question/answer pairs.

Hyper-parameters follow the team's LoRA recipe (LORA dict below), which we use
for all causal-LM fine-tunes.
"""
import os
import random

import torch
from peft import LoraConfig, get_peft_model
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (AutoModelForCausalLM, DataCollatorForLanguageModeling, GPT2Config,
                          GPT2LMHeadModel, PreTrainedTokenizerFast, Trainer, TrainingArguments,
                          set_seed)

BASE_DIR = "/tmp/r3_faq_gpt2_base"
OUT_DIR = "/tmp/r3_faq_gpt2_lora"

LORA = {
    "r": 16,
    "lora_alpha": 32,
    "lora_dropout": 0.05,
    "target_modules": ["q_proj", "k_proj", "v_proj", "o_proj"],
    "bias": "none",
    "task_type": "CAUSAL_LM",
}

FAQ = [
    ("how do i reset my password", "open settings, choose security and press reset password."),
    ("where is my invoice", "invoices are under billing, then history."),
    ("can i change my plan", "yes, go to billing and pick a new plan at any time."),
    ("how do i delete my account", "write to support from the account email and we close it."),
    ("is there a mobile app", "yes, search for our name in the app store or play store."),
    ("how do i export my data", "use settings, data and press export to csv."),
]


def build_corpus(n):
    rows = []
    for _ in range(n):
        q, a = random.choice(FAQ)
        prefix = random.choice(["", "hi, ", "hello, ", "quick question: "])
        rows.append(f"question: {prefix}{q}? answer: {a}")
    return rows


def get_tokenizer(texts):
    wl = Tokenizer(models.WordLevel(unk_token="<unk>"))
    wl.pre_tokenizer = pre_tokenizers.Whitespace()
    wl.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["<pad>", "<unk>", "<eos>"]))
    return PreTrainedTokenizerFast(tokenizer_object=wl, pad_token="<pad>", unk_token="<unk>",
                                   eos_token="<eos>")


def ensure_base(tokenizer):
    """Stand-in for the pretrained checkpoint published by the platform team."""
    if not os.path.isdir(BASE_DIR):
        cfg = GPT2Config(vocab_size=len(tokenizer), n_positions=64, n_embd=128, n_layer=2, n_head=4,
                         bos_token_id=tokenizer.eos_token_id, eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id)
        GPT2LMHeadModel(cfg).save_pretrained(BASE_DIR)
        tokenizer.save_pretrained(BASE_DIR)


class SFTData(torch.utils.data.Dataset):
    def __init__(self, texts, tok):
        self.enc = [tok(t + tok.eos_token, truncation=True, max_length=64) for t in texts]

    def __len__(self):
        return len(self.enc)

    def __getitem__(self, i):
        return self.enc[i]


def main():
    set_seed(0)
    random.seed(0)
    texts = build_corpus(2000)
    tokenizer = get_tokenizer(texts)
    ensure_base(tokenizer)

    model = AutoModelForCausalLM.from_pretrained(BASE_DIR)
    print(f"base model: {model.config.model_type}, {model.num_parameters():,} parameters")
    model = get_peft_model(model, LoraConfig(**LORA))
    model.print_trainable_parameters()

    args = TrainingArguments(output_dir=OUT_DIR, per_device_train_batch_size=32, learning_rate=2e-3,
                             num_train_epochs=2, logging_steps=20, save_strategy="no",
                             report_to=[], use_cpu=True, disable_tqdm=True)
    trainer = Trainer(model=model, args=args, train_dataset=SFTData(texts, tokenizer),
                      data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False))
    trainer.train()
    model.save_pretrained(OUT_DIR)

    prompt = tokenizer("question: where is my invoice ? answer:", return_tensors="pt")
    out = model.generate(**prompt, max_new_tokens=12, do_sample=False,
                         pad_token_id=tokenizer.pad_token_id)
    print(tokenizer.decode(out[0], skip_special_tokens=True))


if __name__ == "__main__":
    main()
