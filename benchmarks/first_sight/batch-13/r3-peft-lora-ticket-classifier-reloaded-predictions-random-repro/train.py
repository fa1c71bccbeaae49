"""LoRA fine-tune of our in-house mini BERT for support-ticket priority (3 classes).

Step 1 trains LoRA adapters (+ the classification head) and saves the adapter.
Step 2 does what the serving container does: load the base checkpoint, attach the
saved adapter, and score the held-out tickets.
"""
import os
import random

import numpy as np
import torch
from peft import LoraConfig, PeftModel, get_peft_model
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers
from transformers import (BertConfig, BertForPreTraining, BertForSequenceClassification,
                          DataCollatorWithPadding, PreTrainedTokenizerFast, Trainer,
                          TrainingArguments, set_seed)

BASE_DIR = "/tmp/r3_ticket_bert_base"
ADAPTER_DIR = "/tmp/r3_ticket_bert_lora"
LABELS = ["low", "normal", "urgent"]
CUES = {
    0: ["feature idea", "just wondering", "no rush", "when you have time", "small typo"],
    1: ["cannot change settings", "invoice question", "export is slow", "need a report"],
    2: ["site is down", "payment failed", "data lost", "security breach", "all users blocked"],
}
FILLER = ("hello team we our the a it this that since today yesterday customer account app "
          "dashboard please thanks regards again after update morning").split()


def make_tickets(n):
    rows = []
    for _ in range(n):
        y = random.randrange(3)
        w = random.choices(FILLER, k=random.randint(4, 24))
        w.insert(random.randint(0, len(w)), random.choice(CUES[y]))
        rows.append({"text": " ".join(w), "label": y})
    return rows


def get_tokenizer(texts):
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(texts, trainers.WordPieceTrainer(
        vocab_size=1000, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]))
    return PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="[PAD]", unk_token="[UNK]",
                                   cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")


def ensure_base_checkpoint(tokenizer):
    """Stand-in for the MLM-pretrained checkpoint the platform team publishes."""
    if not os.path.isdir(BASE_DIR):
        cfg = BertConfig(vocab_size=len(tokenizer), hidden_size=128, num_hidden_layers=2,
                         num_attention_heads=4, intermediate_size=512, max_position_embeddings=64)
        BertForPreTraining(cfg).save_pretrained(BASE_DIR)
        tokenizer.save_pretrained(BASE_DIR)


class Tickets(torch.utils.data.Dataset):
    def __init__(self, rows, tok):
        self.enc = [tok(r["text"], truncation=True, max_length=64) for r in rows]
        self.y = [r["label"] for r in rows]

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return {**self.enc[i], "labels": self.y[i]}


def accuracy(p):
    return {"accuracy": float((np.argmax(p.predictions, -1) == p.label_ids).mean())}


def main():
    set_seed(0)
    random.seed(0)
    train_rows, test_rows = make_tickets(3000), make_tickets(600)
    tokenizer = get_tokenizer([r["text"] for r in train_rows])
    ensure_base_checkpoint(tokenizer)
    train_ds, test_ds = Tickets(train_rows, tokenizer), Tickets(test_rows, tokenizer)
    collator = DataCollatorWithPadding(tokenizer)

    # ---- step 1: LoRA training ----
    base = BertForSequenceClassification.from_pretrained(BASE_DIR, num_labels=len(LABELS))
    lora_cfg = LoraConfig(r=16, lora_alpha=32, lora_dropout=0.05,
                          target_modules=["query", "value"])
    model = get_peft_model(base, lora_cfg)
    for name, p in model.named_parameters():      # the new head has to learn too
        if "classifier" in name:
            p.requires_grad = True
    model.print_trainable_parameters()

    args = TrainingArguments(output_dir="/tmp/r3_ticket_lora_run", per_device_train_batch_size=32,
                             per_device_eval_batch_size=128, learning_rate=3e-3,
                             num_train_epochs=3, logging_steps=50, eval_strategy="epoch",
                             save_strategy="no", report_to=[], use_cpu=True, disable_tqdm=True)
    trainer = Trainer(model=model, args=args, train_dataset=train_ds, eval_dataset=test_ds,
                      data_collator=collator, compute_metrics=accuracy)
    trainer.train()
    model.save_pretrained(ADAPTER_DIR)
    print("adapter files:", sorted(os.listdir(ADAPTER_DIR)))

    # ---- step 2: reload like the serving container and score the held-out tickets ----
    serve_base = BertForSequenceClassification.from_pretrained(BASE_DIR, num_labels=len(LABELS))
    serve_model = PeftModel.from_pretrained(serve_base, ADAPTER_DIR).eval()
    preds = []
    with torch.no_grad():
        for i in range(0, len(test_ds), 128):
            batch = collator([test_ds[j] for j in range(i, min(i + 128, len(test_ds)))])
            batch.pop("labels")
            preds += serve_model(**batch).logits.argmax(-1).tolist()
    acc = float(np.mean(np.array(preds) == np.array(test_ds.y)))
    print(f"reloaded adapter, held-out accuracy: {acc:.3f}")
    print("prediction counts:", {LABELS[k]: preds.count(k) for k in range(len(LABELS))})


if __name__ == "__main__":
    main()
