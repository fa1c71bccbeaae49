"""Sentiment classifier with accelerate, data-parallel over 2 CPU processes.

Launch:  torchrun --nproc_per_node 2 train.py
"""
import datetime
import random

import torch
from torch.utils.data import DataLoader
from accelerate import Accelerator, InitProcessGroupKwargs
from accelerate.utils import ProjectConfiguration
from accelerate.utils import set_seed
from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers
from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

# fail instead of waiting 30 minutes if a rank dies
accelerator = Accelerator(
    cpu=True,
    project_config=ProjectConfiguration(project_dir="runs/sentiment", automatic_checkpoint_naming=True, total_limit=2),
    kwargs_handlers=[InitProcessGroupKwargs(timeout=datetime.timedelta(seconds=60))],
)
set_seed(0)
rng = random.Random(0)  # same synthetic data on every rank

POS = ["great", "love", "excellent", "fantastic", "smooth", "perfect"]
NEG = ["awful", "hate", "broken", "terrible", "laggy", "worst"]
FILL = ["the", "app", "is", "this", "update", "really", "so", "and", "ui", "after", "today", "my", "phone"]


def sample():
    y = rng.randint(0, 1)
    w = rng.choices(FILL, k=rng.randint(4, 12)) + rng.choices(POS if y else NEG, k=rng.randint(1, 2))
    rng.shuffle(w)
    return {"text": " ".join(w), "label": y}


data = [sample() for _ in range(3000)]
train_data, val_data = data[:2600], data[2600:]

wl = Tokenizer(models.WordLevel(unk_token="[UNK]"))
wl.pre_tokenizer = pre_tokenizers.Whitespace()
wl.train_from_iterator([d["text"] for d in train_data],
                       trainers.WordLevelTrainer(special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]"], show_progress=False))
wl.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]",
                                                  special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
tokenizer = PreTrainedTokenizerFast(tokenizer_object=wl, pad_token="[PAD]", unk_token="[UNK]",
                                    cls_token="[CLS]", sep_token="[SEP]")


def collate(batch):
    enc = tokenizer([b["text"] for b in batch], padding=True, return_tensors="pt")
    enc["labels"] = torch.tensor([b["label"] for b in batch])
    return enc


model = BertForSequenceClassification(BertConfig(
    vocab_size=len(tokenizer), hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
    intermediate_size=128, max_position_embeddings=64, num_labels=2))
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
train_dl = DataLoader(train_data, batch_size=32, shuffle=True, collate_fn=collate)
val_dl = DataLoader(val_data, batch_size=64, collate_fn=collate)
model, optimizer, train_dl, val_dl = accelerator.prepare(model, optimizer, train_dl, val_dl)

accelerator.print(f"distributed_type={accelerator.distributed_type} num_processes={accelerator.num_processes} "
                  f"batches/epoch/rank={len(train_dl)}")

for epoch in range(3):
    model.train()
    for step, batch in enumerate(train_dl):
        loss = model(**batch).loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        if step % 20 == 0:
            print(f"[rank {accelerator.process_index}] epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)

    print(f"[rank {accelerator.process_index}] epoch {epoch} done, evaluating", flush=True)
    model.eval()
    correct = total = 0
    for batch in val_dl:
        with torch.no_grad():
            preds = model(**batch).logits.argmax(-1)
        preds, labels = accelerator.gather_for_metrics((preds, batch["labels"]))
        correct += (preds == labels).sum().item()
        total += labels.numel()
    accelerator.print(f"epoch {epoch} val accuracy {correct / total:.4f}", flush=True)
    if accelerator.is_main_process:
        accelerator.save_state()
        print(f"saved checkpoint for epoch {epoch}", flush=True)

accelerator.wait_for_everyone()
accelerator.print("training finished")
accelerator.end_training()
