"""Fine-tune a small GPT-2 style model on store FAQ answers (causal LM, HF Trainer).

Decoding settings live in GEN_CFG and are attached to the model so that the
exported checkpoint carries them (the serving side just calls generate()).
"""
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers, decoders
from transformers import (DataCollatorForLanguageModeling, GenerationConfig, GPT2Config,
                          GPT2LMHeadModel, PreTrainedTokenizerFast, Trainer, TrainingArguments)

random.seed(0)
torch.manual_seed(0)

GEN_CFG = {
    "max_new_tokens": 48,
    "temperature": 0.7,
    "top_p": 0.9,
    "repetition_penalty": 1.1,
}

QUESTIONS = ["how do i return {item}", "can i exchange my {item}", "where is my {item} order",
             "is the {item} in stock", "does the {item} have a warranty"]
ANSWERS = ["you can return the {item} within 30 days with the receipt",
           "exchanges for the {item} are free in any store",
           "your {item} order ships in two business days",
           "the {item} is back in stock next week",
           "the {item} comes with a two year warranty"]
ITEMS = "kettle toaster blender lamp chair desk backpack jacket helmet tent".split()


def make_corpus(n):
    rows = []
    for _ in range(n):
        k, item = random.randrange(len(QUESTIONS)), random.choice(ITEMS)
        rows.append(f"question: {QUESTIONS[k].format(item=item)} answer: {ANSWERS[k].format(item=item)} <|endoftext|>")
    return rows


corpus = make_corpus(3000)
raw = Tokenizer(models.BPE(unk_token="<unk>"))
raw.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
raw.decoder = decoders.ByteLevel()
raw.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=400, special_tokens=["<|endoftext|>", "<unk>", "<pad>"],
                                                    initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=raw, eos_token="<|endoftext|>", unk_token="<unk>",
                                    pad_token="<pad>", model_max_length=64)


class LMDataset(torch.utils.data.Dataset):
    def __init__(self, texts):
        self.enc = [tokenizer(t, truncation=True)["input_ids"] for t in texts]

    def __len__(self):
        return len(self.enc)

    def __getitem__(self, i):
        return {"input_ids": self.enc[i]}


train_ds, eval_ds = LMDataset(corpus[:2700]), LMDataset(corpus[2700:])

config = GPT2Config(vocab_size=len(tokenizer), n_positions=64, n_embd=128, n_layer=3, n_head=4,
                    bos_token_id=tokenizer.eos_token_id, eos_token_id=tokenizer.eos_token_id)
model = GPT2LMHeadModel(config)
model.generation_config = GenerationConfig(**GEN_CFG, pad_token_id=tokenizer.pad_token_id,
                                           eos_token_id=tokenizer.eos_token_id)

args = TrainingArguments(
    output_dir="faq_gpt2",
    num_train_epochs=3,
    per_device_train_batch_size=32,
    per_device_eval_batch_size=64,
    learning_rate=1e-3,
    warmup_steps=20,
    eval_strategy="epoch",
    save_strategy="epoch",
    save_total_limit=2,
    logging_steps=20,
    report_to=[],
    use_cpu=True,
    seed=0,
)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False))
trainer.train()
trainer.save_model("faq_gpt2/final")
tokenizer.save_pretrained("faq_gpt2/final")

prompt = tokenizer("question: how do i return kettle answer:", return_tensors="pt")
out = model.generate(**prompt)
print(tokenizer.decode(out[0], skip_special_tokens=True))
