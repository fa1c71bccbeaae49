"""Fine-tune a small BERT-style classifier on support-ticket intents (CPU box)."""
import random
import time

import torch
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from torch.utils.data import Dataset
from transformers import (BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast,
                          Trainer, TrainingArguments, DataCollatorWithPadding)
import transformers

INTENTS = {
    0: ["reset my password", "cannot log in", "locked out of account", "forgot login email"],
    1: ["refund for order", "charged twice", "cancel my subscription", "invoice is wrong"],
    2: ["app crashes on start", "page will not load", "error when uploading file", "sync is broken"],
    3: ["change delivery address", "where is my package", "tracking not updating", "late shipment"],
}
FILLER = ["hi", "hello", "please", "help", "asap", "thanks", "team", "today", "again", "urgent", "i", "my"]


def make_texts(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        label = rng.randrange(4)
        words = rng.sample(FILLER, rng.randint(1, 5)) + rng.choice(INTENTS[label]).split()
        words += rng.sample(FILLER, rng.randint(0, 4))
        out.append((" ".join(words), label))
    return out


def build_tokenizer(texts):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=2000,
                                        special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    tok.train_from_iterator(texts, trainer)
    from tokenizers.processors import TemplateProcessing
    tok.post_processor = TemplateProcessing(single="[CLS] $A [SEP]",
                                            special_tokens=[("[CLS]", tok.token_to_id("[CLS]")),
                                                            ("[SEP]", tok.token_to_id("[SEP]"))])
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")


class TicketDataset(Dataset):
    def __init__(self, rows, tokenizer, max_length):
        texts = [t for t, _ in rows]
        self.enc = tokenizer(texts, truncation=True, padding="max_length", max_length=max_length)
        self.labels = [l for _, l in rows]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        item = {k: v[i] for k, v in self.enc.items()}
        item["labels"] = self.labels[i]
        return item


def main():
    torch.manual_seed(0)
    print(f"torch {torch.__version__} transformers {transformers.__version__} threads {torch.get_num_threads()}")
    train_rows, val_rows = make_texts(4000, 0), make_texts(256, 1)
    tokenizer = build_tokenizer([t for t, _ in train_rows])

    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=256, num_hidden_layers=4,
                        num_attention_heads=4, intermediate_size=1024, max_position_embeddings=512,
                        num_labels=4)
    model = BertForSequenceClassification(config)
    max_length = config.max_position_embeddings
    train_ds = TicketDataset(train_rows, tokenizer, max_length)
    val_ds = TicketDataset(val_rows, tokenizer, max_length)

    args = TrainingArguments(output_dir="out/intent-bert", per_device_train_batch_size=16,
                             per_device_eval_batch_size=64, learning_rate=1e-4, max_steps=16,
                             logging_steps=4, eval_strategy="no", save_strategy="no",
                             report_to=[], use_cpu=True, disable_tqdm=True, seed=0)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds,
                      data_collator=DataCollatorWithPadding(tokenizer))
    t0 = time.time()
    out = trainer.train()
    print(f"train wall {time.time() - t0:.1f}s, "
          f"{out.metrics['train_samples_per_second']:.1f} samples/s, "
          f"{out.metrics['train_steps_per_second']:.2f} steps/s")
    preds = trainer.predict(val_ds)
    acc = (preds.predictions.argmax(-1) == preds.label_ids).mean()
    print(f"val acc {acc:.4f}, predict {preds.metrics['test_runtime']:.1f}s")


if __name__ == "__main__":
    main()
