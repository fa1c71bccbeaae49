"""Fine-tune a tiny GPT-2 on our internal FAQ answers and track answer exact-match."""
import random
import re

import numpy as np
import torch
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
from transformers import (DataCollatorForLanguageModeling, GPT2Config, GPT2LMHeadModel,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments)

random.seed(0)
torch.manual_seed(0)

PRODUCTS = ["router", "modem", "camera", "doorbell", "thermostat", "speaker", "hub", "sensor"]
ACTIONS = ["reset", "update", "pair", "mount", "charge", "register", "clean", "replace"]
STEPS = ["hold the power button for ten seconds", "open the app and tap settings",
         "unplug it and wait one minute", "scan the code on the back",
         "press the small button twice", "remove the cover and check the battery"]


def make_example():
    p, a = random.choice(PRODUCTS), random.choice(ACTIONS)
    s1, s2 = random.sample(STEPS, 2)
    return f"question : how do i {a} my {p} ? answer : first {s1} , then {s2} ."


texts = [make_example() for _ in range(800)]
train_texts, eval_texts = texts[:700], texts[700:]

# word-level tokenizer trained on the corpus
tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[EOS]"]))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                    eos_token="[EOS]")


class FAQDataset(torch.utils.data.Dataset):
    def __init__(self, texts):
        self.enc = [tokenizer(t + " [EOS]")["input_ids"] for t in texts]

    def __len__(self):
        return len(self.enc)

    def __getitem__(self, i):
        return {"input_ids": self.enc[i]}


config = GPT2Config(vocab_size=len(tokenizer), n_positions=64, n_embd=64, n_layer=2, n_head=2,
                    pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id)
model = GPT2LMHeadModel(config)
print(f"model params: {model.num_parameters():,}  vocab: {len(tokenizer)}")

# answers should be plain words; only strip punctuation when something else slipped in
PLAIN_ANSWER = re.compile(r"^([a-z0-9]+\s?)*$")


def normalize(s):
    s = s.lower().strip()
    if not PLAIN_ANSWER.match(s):
        s = re.sub(r"[^\w\s]", " ", s)
    return " ".join(s.split())


def preprocess_logits_for_metrics(logits, labels):
    return logits.argmax(-1)


def compute_metrics(eval_pred):
    preds, labels = eval_pred.predictions, eval_pred.label_ids
    exact, word_acc = [], []
    for p, l in zip(preds, labels):
        mask = l[1:] != -100
        pred_ids = p[:-1][mask]          # logits at t predict token t+1
        gold_ids = l[1:][mask]
        pred_txt = tokenizer.decode(pred_ids, skip_special_tokens=True)
        gold_txt = tokenizer.decode(gold_ids, skip_special_tokens=True)
        pred_ans = normalize(pred_txt.split("answer :")[-1])
        gold_ans = normalize(gold_txt.split("answer :")[-1])
        exact.append(pred_ans == gold_ans)
        word_acc.append(np.mean(pred_ids == gold_ids))
    return {"answer_exact_match": float(np.mean(exact)), "token_acc": float(np.mean(word_acc))}


args = TrainingArguments(
    output_dir="faq-gpt2",
    per_device_train_batch_size=32,
    per_device_eval_batch_size=32,
    num_train_epochs=2,
    learning_rate=3e-3,
    eval_strategy="epoch",
    save_strategy="no",
    logging_steps=10,
    report_to=[],
    use_cpu=True,
)

trainer = Trainer(
    model=model,
    args=args,
    train_dataset=FAQDataset(train_texts),
    eval_dataset=FAQDataset(eval_texts),
    data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False),
    compute_metrics=compute_metrics,
    preprocess_logits_for_metrics=preprocess_logits_for_metrics,
)
trainer.train()
print(trainer.evaluate())
