"""Pretrain a small Llama-style LM on a synthetic corpus with the HF Trainer; report eval token accuracy."""
import random
import resource

import numpy as np
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import (
    DataCollatorForLanguageModeling,
    LlamaConfig,
    LlamaForCausalLM,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
)

rng = random.Random(11)
SYL = ["ka", "lo", "mi", "ne", "ru", "ta", "shi", "po", "ve", "dan", "gor", "ix", "ul", "bre", "tso", "fa",
       "qui", "zen", "hap", "lum", "ost", "wer", "yal", "ci"]
LEX = list({"".join(rng.choices(SYL, k=rng.randint(1, 4))) for _ in range(20000)})


def doc():
    return " ".join(rng.choice(LEX[: rng.randint(200, len(LEX))]) for _ in range(rng.randint(80, 400))) + "."


corpus = [doc() for _ in range(1600)]
BLOCK = 256

bpe = Tokenizer(models.BPE(unk_token="<unk>"))
bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
bpe.decoder = decoders.ByteLevel()
bpe.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=12000, special_tokens=["<unk>", "<s>", "</s>"],
                                                    show_progress=False))
tok = PreTrainedTokenizerFast(tokenizer_object=bpe, bos_token="<s>", eos_token="</s>", unk_token="<unk>")
tok.pad_token = tok.eos_token


def pack(texts):
    ids = []
    for t in texts:
        ids += tok(t)["input_ids"] + [tok.eos_token_id]
    return [{"input_ids": ids[i: i + BLOCK]} for i in range(0, len(ids) - BLOCK, BLOCK)]


train_ds = pack(corpus[:1400])
eval_ds = pack(corpus[1400:])
print(f"vocab={len(tok)} train_blocks={len(train_ds)} eval_blocks={len(eval_ds)}")

model = LlamaForCausalLM(LlamaConfig(
    vocab_size=len(tok), hidden_size=128, intermediate_size=384, num_hidden_layers=2, num_attention_heads=4,
    num_key_value_heads=2, max_position_embeddings=BLOCK, tie_word_embeddings=True,
    bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id))


def compute_metrics(eval_pred):
    logits, labels = eval_pred
    preds = logits[:, :-1].argmax(-1)
    labels = labels[:, 1:]
    mask = labels != -100
    return {"token_accuracy": float((preds[mask] == labels[mask]).mean())}


args = TrainingArguments(
    output_dir="lm_out", per_device_train_batch_size=16, per_device_eval_batch_size=16,
    max_steps=60, learning_rate=2e-3, warmup_steps=20, lr_scheduler_type="cosine",
    eval_strategy="steps", eval_steps=30, logging_steps=10, save_strategy="no",
    report_to=[], use_cpu=True, disable_tqdm=True, seed=11,
)
trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds,
                  data_collator=DataCollatorForLanguageModeling(tok, mlm=False),
                  compute_metrics=compute_metrics)
trainer.train()
print(trainer.evaluate())
print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
