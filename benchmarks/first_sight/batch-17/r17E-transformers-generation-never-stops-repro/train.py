"""Fine-tune a small GPT-2 style model on a toy 'count from a to b' task with HF Trainer."""
import os
import random
import tempfile

import torch
from tokenizers import Tokenizer, models, pre_tokenizers, processors
from transformers import (DataCollatorForLanguageModeling, GPT2Config, GPT2LMHeadModel,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

set_seed(0)
MAX_N = 40


def build_tokenizer():
    words = ["<unk>", "<eos>", "count", "from", "to", ":"] + [str(i) for i in range(MAX_N + 20)]
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.post_processor = processors.TemplateProcessing(
        single="$A <eos>", special_tokens=[("<eos>", 1)])
    hf_tok = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", eos_token="<eos>")
    hf_tok.pad_token = hf_tok.eos_token
    return hf_tok


def make_example(rng):
    a = rng.randint(0, MAX_N - 2)
    b = rng.randint(a + 1, min(a + 12, MAX_N))
    prompt = f"count from {a} to {b} :"
    answer = " ".join(str(i) for i in range(a, b + 1))
    return prompt, answer


class CountDataset(torch.utils.data.Dataset):
    def __init__(self, tokenizer, n, seed):
        rng = random.Random(seed)
        self.items = []
        for _ in range(n):
            prompt, answer = make_example(rng)
            self.items.append(tokenizer(prompt + " " + answer)["input_ids"])

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return {"input_ids": self.items[i]}


def evaluate_generation(model, tokenizer, n=100):
    rng = random.Random(1234)
    model.eval()
    stopped, exact = 0, 0
    lengths = []
    samples = []
    for _ in range(n):
        prompt, answer = make_example(rng)
        ids = torch.tensor([tokenizer(prompt, add_special_tokens=False)["input_ids"]])
        with torch.no_grad():
            out = model.generate(ids, max_new_tokens=30, do_sample=False,
                                 eos_token_id=tokenizer.eos_token_id,
                                 pad_token_id=tokenizer.pad_token_id)
        new = out[0, ids.shape[1]:].tolist()
        lengths.append(len(new))
        if tokenizer.eos_token_id in new:
            stopped += 1
            new = new[:new.index(tokenizer.eos_token_id)]
        text = tokenizer.decode(new).strip()
        exact += int(text == answer)
        if len(samples) < 3:
            samples.append((prompt, tokenizer.decode(out[0, ids.shape[1]:])))
    for p, g in samples:
        print(f"  PROMPT: {p!r}\n  GEN:    {g!r}")
    print(f"generation eval: n={n} stopped_with_eos={stopped / n:.2%} exact_match={exact / n:.2%} "
          f"mean_new_tokens={sum(lengths) / n:.1f}")


def main():
    tokenizer = build_tokenizer()
    train_ds = CountDataset(tokenizer, 6000, seed=0)
    eval_ds = CountDataset(tokenizer, 300, seed=1)
    config = GPT2Config(vocab_size=len(tokenizer), n_positions=64, n_embd=64, n_layer=2, n_head=4,
                        bos_token_id=tokenizer.eos_token_id, eos_token_id=tokenizer.eos_token_id,
                        pad_token_id=tokenizer.pad_token_id)
    model = GPT2LMHeadModel(config)
    print(f"params: {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M")

    collator = DataCollatorForLanguageModeling(tokenizer=tokenizer, mlm=False)
    args = TrainingArguments(
        output_dir=os.path.join(tempfile.gettempdir(), "count_gpt2"), per_device_train_batch_size=32,
        per_device_eval_batch_size=64, learning_rate=2e-3, warmup_steps=50, max_steps=300,
        lr_scheduler_type="cosine", logging_steps=50, eval_strategy="steps", eval_steps=150,
        save_strategy="no", report_to="none", use_cpu=True, seed=0, disable_tqdm=True)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                      data_collator=collator)
    trainer.train()
    print(trainer.evaluate())
    evaluate_generation(model, tokenizer)


if __name__ == "__main__":
    main()
