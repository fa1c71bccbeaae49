"""Pretrain a tiny GPT-2 on service log lines so we can score anomalies by perplexity."""
import random

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import (DataCollatorForLanguageModeling, GPT2Config,
                          GPT2LMHeadModel, PreTrainedTokenizerFast, Trainer,
                          TrainingArguments, set_seed)

set_seed(0)
SERVICES = ["auth", "billing", "search", "gateway", "scheduler"]
LEVELS = ["INFO", "INFO", "INFO", "WARN", "ERROR"]
MSGS = ["request served in {n}ms", "cache miss for key user:{n}", "retrying upstream call attempt {n}",
        "connection pool size {n}", "job {n} finished", "slow query took {n}ms", "token refreshed for session {n}"]


def make_document(rng):
    # one document = one request trace, a handful of log lines
    n_lines = rng.choice([2, 3, 4, 6, 8, 30])
    lines = []
    for _ in range(n_lines):
        msg = rng.choice(MSGS).format(n=rng.randint(1, 9999))
        lines.append(f"{rng.choice(LEVELS)} [{rng.choice(SERVICES)}] {msg}")
    return "\n".join(lines)


def train_tokenizer(corpus):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=800, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(corpus, trainer=trainer)
    hf_tok = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<|endoftext|>",
                                     eos_token="<|endoftext|>")
    hf_tok.pad_token = hf_tok.eos_token
    return hf_tok


class LogDataset(torch.utils.data.Dataset):
    def __init__(self, docs, tokenizer):
        self.examples = [tokenizer(d + tokenizer.eos_token, truncation=True)["input_ids"] for d in docs]

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, i):
        return {"input_ids": self.examples[i]}


def main():
    rng = random.Random(0)
    docs = [make_document(rng) for _ in range(3000)]
    tokenizer = train_tokenizer(docs)
    print(f"tokenizer vocab: {len(tokenizer)}")

    train_ds = LogDataset(docs[:2700], tokenizer)
    eval_ds = LogDataset(docs[2700:], tokenizer)
    lens = [len(x) for x in train_ds.examples]
    print(f"train docs: {len(train_ds)}  mean tokens/doc: {sum(lens) / len(lens):.1f}")

    config = GPT2Config(vocab_size=len(tokenizer), n_positions=128, n_embd=128, n_layer=2, n_head=4,
                        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                        pad_token_id=tokenizer.pad_token_id)
    model = GPT2LMHeadModel(config)

    args = TrainingArguments(
        output_dir="out/loglm",
        per_device_train_batch_size=16,
        per_device_eval_batch_size=16,
        num_train_epochs=1,
        learning_rate=1e-3,
        warmup_steps=20,
        weight_decay=0.01,
        logging_steps=25,
        eval_strategy="steps",
        eval_steps=100,
        save_strategy="no",
        report_to="none",
        use_cpu=True,
        dataloader_num_workers=2,
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                      data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False))
    trainer.train()
    metrics = trainer.evaluate()
    print(f"eval perplexity: {torch.exp(torch.tensor(metrics['eval_loss'])).item():.2f}")


if __name__ == "__main__":
    main()
