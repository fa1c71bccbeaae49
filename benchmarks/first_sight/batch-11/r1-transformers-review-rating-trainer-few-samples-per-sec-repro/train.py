"""Product-review rating classifier (1-5 stars) with a small BERT trained from scratch.

Step 1 trains a WordPiece tokenizer on the review dump (cached in ./review-tokenizer),
step 2 trains the classifier with the HF Trainer.
"""
import os
import random

from torch.utils.data import Dataset
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
from transformers import (AutoTokenizer, BertConfig, BertForSequenceClassification, DataCollatorWithPadding,
                          PreTrainedTokenizerFast, Trainer, TrainingArguments, set_seed)

set_seed(0)
random.seed(0)
TOK_DIR = "review-tokenizer"
MAX_LEN = 64

SYL = ["ka", "lo", "mi", "tra", "ven", "sol", "dur", "pe", "qui", "nor", "bas", "te", "ru", "gan", "fel",
       "xi", "op", "lem", "dra", "cu"]
PRODUCT_WORDS = ["".join(random.choices(SYL, k=random.randint(2, 4))) for _ in range(40000)]
SENTIMENT = {1: ["awful", "broke", "refund", "useless"], 2: ["poor", "flimsy", "disappointing", "meh"],
             3: ["okay", "average", "fine", "decent"], 4: ["good", "solid", "nice", "recommend"],
             5: ["excellent", "perfect", "love", "amazing"]}


def load_reviews(n, seed):
    """Stand-in for the marketplace dump: brand/product names + a few sentiment words."""
    rng = random.Random(seed)
    texts, labels = [], []
    for _ in range(n):
        star = rng.randint(1, 5)
        words = rng.choices(PRODUCT_WORDS, k=20) + rng.choices(SENTIMENT[star], k=3)
        rng.shuffle(words)
        texts.append(" ".join(words))
        labels.append(star - 1)
    return texts, labels


def train_tokenizer(texts):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(texts, trainers.WordPieceTrainer(
        vocab_size=30000, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]",
                                                       special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]", cls_token="[CLS]",
                            sep_token="[SEP]", mask_token="[MASK]").save_pretrained(TOK_DIR)


class ReviewDataset(Dataset):
    def __init__(self, texts, labels, tokenizer_dir):
        self.texts, self.labels, self.tokenizer_dir = texts, labels, tokenizer_dir

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        # tokenizer is created here, not in __init__, so every DataLoader worker gets its own copy
        # (sharing one fast tokenizer across forked workers triggers the parallelism warning)
        tokenizer = AutoTokenizer.from_pretrained(self.tokenizer_dir)
        enc = tokenizer(self.texts[i], truncation=True, max_length=MAX_LEN)
        enc["labels"] = self.labels[i]
        return enc


def main():
    train_texts, train_labels = load_reviews(1280, seed=1)
    val_texts, val_labels = load_reviews(256, seed=2)
    if not os.path.isdir(TOK_DIR):
        train_tokenizer(train_texts)
    tokenizer = AutoTokenizer.from_pretrained(TOK_DIR)

    config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=128, max_position_embeddings=MAX_LEN, num_labels=5)
    model = BertForSequenceClassification(config)
    args = TrainingArguments(output_dir="review-rating", num_train_epochs=1, per_device_train_batch_size=64,
                             per_device_eval_batch_size=128, learning_rate=2e-3, eval_strategy="epoch",
                             save_strategy="no", logging_steps=5, report_to="none", disable_tqdm=True)
    trainer = Trainer(model=model, args=args,
                      train_dataset=ReviewDataset(train_texts, train_labels, TOK_DIR),
                      eval_dataset=ReviewDataset(val_texts, val_labels, TOK_DIR),
                      data_collator=DataCollatorWithPadding(tokenizer))
    trainer.train()


if __name__ == "__main__":
    main()
