"""Toy sequence-continuation LM: learn arithmetic progressions mod 64, then check greedy continuations."""
import random

import torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast, Trainer,
                          TrainingArguments, default_data_collator, set_seed)

set_seed(0)
MOD, SEQ_LEN, PROMPT_LEN = 64, 16, 6


def build_tokenizer():
    vocab = {"<pad>": 0, "<bos>": 1, "<eos>": 2}
    vocab.update({str(i): i + 3 for i in range(MOD)})
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<pad>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<bos>", eos_token="<eos>", pad_token="<pad>")


def progression(rng):
    a, d = rng.randrange(MOD), rng.choice([1, 2, 3, 5, 7])
    return [str((a + k * d) % MOD) for k in range(SEQ_LEN)]


class ProgressionDataset(torch.utils.data.Dataset):
    def __init__(self, n, tokenizer, seed):
        rng = random.Random(seed)
        self.samples = []
        for _ in range(n):
            ids = [tokenizer.bos_token_id] + tokenizer.convert_tokens_to_ids(progression(rng))
            labels = ids[1:] + [-100]
            self.samples.append({"input_ids": torch.tensor(ids), "attention_mask": torch.ones(len(ids), dtype=torch.long),
                                 "labels": torch.tensor(labels)})

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        return self.samples[i]


@torch.no_grad()
def continuation_accuracy(model, tokenizer, n=200, seed=123):
    model.eval()
    rng = random.Random(seed)
    exact, examples = 0, []
    for _ in range(n):
        seq = progression(rng)
        prompt = torch.tensor([[tokenizer.bos_token_id] + tokenizer.convert_tokens_to_ids(seq[:PROMPT_LEN])])
        out = model.generate(prompt, max_new_tokens=6, do_sample=False, pad_token_id=tokenizer.pad_token_id)
        pred = tokenizer.convert_ids_to_tokens(out[0, prompt.shape[1]:].tolist())
        exact += pred == seq[PROMPT_LEN:PROMPT_LEN + 6]
        if len(examples) < 4:
            examples.append((" ".join(seq[:PROMPT_LEN]), " ".join(pred), " ".join(seq[PROMPT_LEN:PROMPT_LEN + 6])))
    for p, g, t in examples:
        print(f"  prompt: {p:<22} generated: {g:<22} expected: {t}")
    return exact / n


def main():
    tokenizer = build_tokenizer()
    train_ds = ProgressionDataset(4000, tokenizer, seed=1)
    eval_ds = ProgressionDataset(500, tokenizer, seed=2)

    config = GPT2Config(vocab_size=len(tokenizer), n_positions=32, n_embd=128, n_layer=2, n_head=4,
                        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                        pad_token_id=tokenizer.pad_token_id)
    model = GPT2LMHeadModel(config)

    args = TrainingArguments(output_dir="out/progressions", per_device_train_batch_size=64,
                             per_device_eval_batch_size=128, num_train_epochs=3, learning_rate=2e-3,
                             warmup_steps=20, lr_scheduler_type="cosine", logging_steps=25,
                             eval_strategy="epoch", save_strategy="no", report_to="none",
                             use_cpu=True, disable_tqdm=True)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                      data_collator=default_data_collator)
    trainer.train()
    print(f"final eval: {trainer.evaluate()}")
    print(f"greedy continuation exact-match: {continuation_accuracy(model, tokenizer):.3f}")


if __name__ == "__main__":
    main()
