# Sentence acceptability classifier -- adapted from the BERT fine-tuning tutorial notebook
# we used in 2021 (ported to a script, small BERT so it runs on the CPU build box).
import os
import random
import time

import numpy as np
import torch
from torch.optim import AdamW
from torch.utils.data import DataLoader, RandomSampler, SequentialSampler, TensorDataset, random_split
from transformers import BertConfig, BertForSequenceClassification, BertTokenizer
from transformers import get_linear_schedule_with_warmup

TOKENIZER_DIR = "/tmp/cola-small/tokenizer"
SUBJ = ["the cat", "a dog", "my sister", "the teacher", "john", "they"]
VERB = ["saw", "likes", "chased", "met", "helped"]
OBJ = ["the ball", "a friend", "the house", "her", "the students"]

if torch.cuda.is_available():
    device = torch.device("cuda")
    print("There are %d GPU(s) available." % torch.cuda.device_count())
else:
    print("No GPU available, using the CPU instead.")
    device = torch.device("cpu")


def make_sentences(n, seed=42):
    rng = random.Random(seed)
    sents, labels = [], []
    for _ in range(n):
        s, v, o = rng.choice(SUBJ), rng.choice(VERB), rng.choice(OBJ)
        if rng.random() < 0.5:
            sents.append(f"{s} {v} {o} .")
            labels.append(1)
        else:  # scrambled word order -> unacceptable
            w = f"{s} {v} {o}".split()
            rng.shuffle(w)
            sents.append(" ".join(w) + " .")
            labels.append(0 if " ".join(w) != f"{s} {v} {o}" else 1)
    return sents, labels


def ensure_tokenizer():
    if not os.path.exists(os.path.join(TOKENIZER_DIR, "vocab.txt")):
        os.makedirs(TOKENIZER_DIR, exist_ok=True)
        words = sorted({w for p in SUBJ + VERB + OBJ for w in p.split()} | {"."})
        with open(os.path.join(TOKENIZER_DIR, "vocab.txt"), "w") as f:
            f.write("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + words))


sentences, labels = make_sentences(2000)
print("Number of training sentences: {:,}\n".format(len(sentences)))

print("Loading BERT tokenizer...")
ensure_tokenizer()
tokenizer = BertTokenizer.from_pretrained(TOKENIZER_DIR, do_lower_case=True)
print(" Original: ", sentences[0])
print("Tokenized: ", tokenizer.tokenize(sentences[0]))
print("Token IDs: ", tokenizer.convert_tokens_to_ids(tokenizer.tokenize(sentences[0])))

input_ids = []
attention_masks = []
for sent in sentences:
    encoded_dict = tokenizer.encode_plus(
        sent,
        add_special_tokens=True,
        max_length=16,
        pad_to_max_length=True,
        return_attention_mask=True,
        return_tensors="pt",
    )
    input_ids.append(encoded_dict["input_ids"])
    attention_masks.append(encoded_dict["attention_mask"])

input_ids = torch.cat(input_ids, dim=0)
attention_masks = torch.cat(attention_masks, dim=0)
labels = torch.tensor(labels)
print("Original: ", sentences[0])
print("Token IDs:", input_ids[0])

dataset = TensorDataset(input_ids, attention_masks, labels)
train_size = int(0.9 * len(dataset))
train_dataset, val_dataset = random_split(dataset, [train_size, len(dataset) - train_size],
                                          generator=torch.Generator().manual_seed(42))
print("{:>5,} training samples".format(train_size))
print("{:>5,} validation samples".format(len(dataset) - train_size))

batch_size = 32
train_dataloader = DataLoader(train_dataset, sampler=RandomSampler(train_dataset), batch_size=batch_size)
validation_dataloader = DataLoader(val_dataset, sampler=SequentialSampler(val_dataset), batch_size=batch_size)

config = BertConfig(vocab_size=tokenizer.vocab_size, hidden_size=64, num_hidden_layers=2,
                    num_attention_heads=4, intermediate_size=128, max_position_embeddings=32,
                    num_labels=2)
model = BertForSequenceClassification(config).to(device)
optimizer = AdamW(model.parameters(), lr=1e-3, eps=1e-8)
epochs = 4
total_steps = len(train_dataloader) * epochs
scheduler = get_linear_schedule_with_warmup(optimizer, num_warmup_steps=0, num_training_steps=total_steps)

seed_val = 42
random.seed(seed_val)
np.random.seed(seed_val)
torch.manual_seed(seed_val)

for epoch_i in range(epochs):
    print("\n======== Epoch {:} / {:} ========".format(epoch_i + 1, epochs))
    t0 = time.time()
    total_train_loss = 0
    model.train()
    for step, batch in enumerate(train_dataloader):
        b_input_ids, b_input_mask, b_labels = (t.to(device) for t in batch)
        model.zero_grad()
        result = model(b_input_ids, attention_mask=b_input_mask, labels=b_labels, return_dict=True)
        total_train_loss += result.loss.item()
        result.loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
    print("  Average training loss: {0:.2f}".format(total_train_loss / len(train_dataloader)))
    print("  Training epoch took: {:.1f}s".format(time.time() - t0))

    model.eval()
    correct = 0
    for batch in validation_dataloader:
        b_input_ids, b_input_mask, b_labels = (t.to(device) for t in batch)
        with torch.no_grad():
            logits = model(b_input_ids, attention_mask=b_input_mask, return_dict=True).logits
        correct += (logits.argmax(-1) == b_labels).sum().item()
    print("  Validation Accuracy: {0:.2f}".format(correct / len(val_dataset)))

print("\nTraining complete!")
