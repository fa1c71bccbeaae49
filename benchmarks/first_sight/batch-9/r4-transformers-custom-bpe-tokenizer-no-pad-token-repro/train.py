import os
import random

import torch
from tokenizers import ByteLevelBPETokenizer
from transformers import (GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast, Trainer,
                          TrainingArguments)

random.seed(0)
torch.manual_seed(0)

TOK_DIR = "./recipe-tokenizer"
BLOCK = 64

INGR = ["flour", "sugar", "butter", "eggs", "milk", "salt", "garlic", "onion", "tomato", "basil",
        "olive oil", "pepper", "rice", "chicken", "lemon", "cream", "cheese", "yeast", "water"]
VERBS = ["mix", "whisk", "chop", "fry", "bake", "boil", "stir", "season", "knead", "simmer"]


def fake_recipe():
    ing = random.sample(INGR, random.randint(3, 6))
    steps = [f"{random.choice(VERBS)} the {random.choice(ing)} for {random.randint(2, 40)} minutes."
             for _ in range(random.randint(2, 5))]
    return "Ingredients: " + ", ".join(ing) + ". Steps: " + " ".join(steps)


def get_tokenizer(corpus):
    if not os.path.isdir(TOK_DIR):
        bpe = ByteLevelBPETokenizer()
        bpe.train_from_iterator(corpus, vocab_size=800, min_frequency=2, special_tokens=["<|endoftext|>"])
        os.makedirs(TOK_DIR, exist_ok=True)
        tok = PreTrainedTokenizerFast(tokenizer_object=bpe, bos_token="<|endoftext|>",
                                      eos_token="<|endoftext|>", unk_token="<|endoftext|>")
        tok.save_pretrained(TOK_DIR)
    return PreTrainedTokenizerFast.from_pretrained(TOK_DIR)


class LMDataset(torch.utils.data.Dataset):
    def __init__(self, texts, tok):
        enc = tok([t + tok.eos_token for t in texts], truncation=True, max_length=BLOCK,
                  padding="max_length", return_tensors="pt")
        self.input_ids = enc["input_ids"]
        self.attention_mask = enc["attention_mask"]

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, i):
        labels = self.input_ids[i].clone()
        labels[self.attention_mask[i] == 0] = -100
        return {"input_ids": self.input_ids[i], "attention_mask": self.attention_mask[i], "labels": labels}


def main():
    corpus = [fake_recipe() for _ in range(3000)]
    tok = get_tokenizer(corpus)
    print(f"tokenizer: vocab={len(tok)} special={tok.all_special_tokens}")
    train_ds = LMDataset(corpus[:2700], tok)
    eval_ds = LMDataset(corpus[2700:], tok)

    config = GPT2Config(vocab_size=len(tok), n_positions=BLOCK, n_embd=96, n_layer=3, n_head=3,
                        bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id)
    model = GPT2LMHeadModel(config)
    print(f"model params: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M")

    args = TrainingArguments(output_dir="./out/recipe-gpt", per_device_train_batch_size=32,
                             num_train_epochs=2, learning_rate=1e-3, warmup_steps=20,
                             eval_strategy="epoch", save_strategy="no", logging_steps=20,
                             report_to=[], use_cpu=True)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds)
    trainer.train()

    prompt = tok("Ingredients: flour,", return_tensors="pt")
    out = model.generate(**prompt, max_new_tokens=30, do_sample=False)
    print(tok.decode(out[0]))


if __name__ == "__main__":
    main()
