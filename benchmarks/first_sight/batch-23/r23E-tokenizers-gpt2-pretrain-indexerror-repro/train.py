"""Pre-train a tiny GPT-2 on synthetic 'log line' text with our own byte-level BPE tokenizer."""
import random

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import (
    DataCollatorForLanguageModeling,
    GPT2Config,
    GPT2LMHeadModel,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
    set_seed,
)

set_seed(7)
rng = random.Random(7)

SERVICES = ["auth", "billing", "search", "gateway", "scheduler", "storage"]
LEVELS = ["INFO", "WARN", "ERROR", "DEBUG"]
MSGS = ["request completed in {} ms", "cache miss for key user:{}", "retrying upstream call attempt {}",
        "connection pool exhausted size={}", "user {} logged in", "job {} finished with status ok",
        "disk usage at {} percent", "timeout after {} ms waiting for lock"]


def line():
    return (f"2024-0{rng.randint(1, 9)}-{rng.randint(10, 28)} {rng.choice(LEVELS)} "
            f"[{rng.choice(SERVICES)}] " + rng.choice(MSGS).format(rng.randint(1, 9999)))


corpus = ["\n".join(line() for _ in range(rng.randint(1, 4))) for _ in range(4000)]

# ---- tokenizer -----------------------------------------------------------
bpe = Tokenizer(models.BPE())
bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
bpe.decoder = decoders.ByteLevel()
bpe.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=800, special_tokens=["<|endoftext|>"],
                                                    initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|endoftext|>", bos_token="<|endoftext|>")
tokenizer.add_special_tokens({"pad_token": "<pad>"})
tokenizer.save_pretrained("/tmp/s44/batch-23/r23E-tokenizers-gpt2-pretrain-indexerror-repro/tok")
print(f"tokenizer vocab size: {tokenizer.vocab_size}")


class LogDataset(torch.utils.data.Dataset):
    def __init__(self, texts):
        self.items = [tokenizer(t + tokenizer.eos_token, truncation=True, max_length=128) for t in texts]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


train_ds, eval_ds = LogDataset(corpus[:3600]), LogDataset(corpus[3600:])
print(f"train examples: {len(train_ds)}, eval examples: {len(eval_ds)}")

config = GPT2Config(
    vocab_size=tokenizer.vocab_size,
    n_positions=128,
    n_embd=128,
    n_layer=3,
    n_head=4,
    bos_token_id=tokenizer.bos_token_id,
    eos_token_id=tokenizer.eos_token_id,
)
model = GPT2LMHeadModel(config)
print(f"model: {model.num_parameters()/1e6:.2f}M params")

args = TrainingArguments(
    output_dir="/tmp/s44/batch-23/r23E-tokenizers-gpt2-pretrain-indexerror-repro/out",
    per_device_train_batch_size=32,
    per_device_eval_batch_size=32,
    num_train_epochs=2,
    learning_rate=1e-3,
    warmup_steps=20,
    lr_scheduler_type="cosine",
    logging_steps=20,
    eval_strategy="epoch",
    save_strategy="no",
    report_to="none",
    use_cpu=True,
    disable_tqdm=True,
)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  data_collator=DataCollatorForLanguageModeling(tokenizer, mlm=False))
trainer.train()
metrics = trainer.evaluate()
print(f"eval loss {metrics['eval_loss']:.3f}  ppl {torch.exp(torch.tensor(metrics['eval_loss'])):.2f}")
