"""Intent classifier: small BERT trained from scratch with HF Trainer on short chat utterances."""
import random
import time

import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import (BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments)

random.seed(0)
torch.manual_seed(0)

INTENTS = {
    0: ["cancel my order", "i want to cancel", "stop the subscription", "please cancel it now"],
    1: ["where is my package", "track my order", "has it shipped yet", "delivery status please"],
    2: ["i need a refund", "money back please", "refund the charge", "return and refund"],
    3: ["change my address", "update shipping address", "new delivery address", "wrong address on file"],
}
FILLER = "hi hello thanks please um so well yeah ok i think maybe today asap kindly".split()


def make_utterances(n):
    rows = []
    for _ in range(n):
        label = random.randrange(4)
        words = random.choice(INTENTS[label]).split()
        words = random.sample(FILLER, random.randint(0, 5)) + words + random.sample(FILLER, random.randint(0, 5))
        rows.append((" ".join(words), label))
    return rows


def build_tokenizer(texts):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(texts, trainers.WordPieceTrainer(
        vocab_size=2000, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]",
                                   model_max_length=512)


class IntentDataset(torch.utils.data.Dataset):
    def __init__(self, rows, tokenizer):
        texts = [t for t, _ in rows]
        self.enc = tokenizer(texts, truncation=True, padding="max_length", max_length=512)
        self.labels = [l for _, l in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: torch.tensor(v[i]) for k, v in self.enc.items()}
        item["labels"] = torch.tensor(self.labels[i])
        return item


def compute_metrics(p):
    return {"accuracy": float((p.predictions.argmax(-1) == p.label_ids).mean())}


def main():
    train_rows, val_rows = make_utterances(4000), make_utterances(256)
    tokenizer = build_tokenizer([t for t, _ in train_rows])
    lengths = [len(tokenizer(t)["input_ids"]) for t, _ in train_rows]
    print(f"vocab={tokenizer.vocab_size} mean_len={sum(lengths) / len(lengths):.1f} max_len={max(lengths)}")

    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=128, num_hidden_layers=2,
                        num_attention_heads=4, intermediate_size=512, num_labels=4,
                        max_position_embeddings=512, pad_token_id=tokenizer.pad_token_id)
    model = BertForSequenceClassification(config)

    args = TrainingArguments(
        output_dir="/tmp/intent_bert", per_device_train_batch_size=16, per_device_eval_batch_size=64,
        max_steps=16, learning_rate=5e-4, warmup_steps=2, logging_steps=4, eval_strategy="no",
        save_strategy="no", report_to="none", use_cpu=True, disable_tqdm=True, seed=0,
        dataloader_num_workers=0,
    )
    trainer = Trainer(model=model, args=args, train_dataset=IntentDataset(train_rows, tokenizer),
                      eval_dataset=IntentDataset(val_rows, tokenizer), compute_metrics=compute_metrics)
    t0 = time.time()
    out = trainer.train()
    print(f"train wall {time.time() - t0:.1f}s  samples/s {out.metrics['train_samples_per_second']:.1f} "
          f"steps/s {out.metrics['train_steps_per_second']:.2f}")
    metrics = trainer.evaluate()
    print(f"eval accuracy {metrics['eval_accuracy']:.4f} eval runtime {metrics['eval_runtime']:.1f}s")


if __name__ == "__main__":
    main()
