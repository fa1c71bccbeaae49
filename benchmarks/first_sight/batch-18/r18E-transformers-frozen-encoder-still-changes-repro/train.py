import os
import time

import torch
from torch.utils.data import DataLoader, TensorDataset
from transformers import BertConfig, BertForSequenceClassification

torch.manual_seed(0)
BASE = "/tmp/r18e_topic_bert"   # production task-A model (encoder is shared across heads)
VOCAB, SEQ = 300, 32


def synth(n, task, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(20, VOCAB, (n, SEQ), generator=g)
    ids[:, 0] = 1
    topic = torch.randint(0, 6, (n,), generator=g)
    markers = 5 + topic
    if task == "A":     # fine-grained topic, 6 classes
        y = topic
    else:               # coarse routing queue, 3 classes
        y = topic // 2
    pos = torch.randint(1, SEQ, (n, 3), generator=g)
    ids.scatter_(1, pos, markers.unsqueeze(1).expand(-1, 3))
    return TensorDataset(ids, y)


@torch.no_grad()
def accuracy(model, ds):
    model.eval()
    correct = 0
    for x, y in DataLoader(ds, batch_size=256):
        correct += (model(input_ids=x).logits.argmax(-1) == y).sum().item()
    model.train()
    return correct / len(ds)


def train(model, ds, steps, lr):
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    it = iter(DataLoader(ds, batch_size=64, shuffle=True))
    t0 = time.time()
    for step in range(steps):
        try:
            x, y = next(it)
        except StopIteration:
            it = iter(DataLoader(ds, batch_size=64, shuffle=True))
            x, y = next(it)
        loss = model(input_ids=x, labels=y).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
        if step % 50 == 0:
            print(f"  step {step:3d} loss {loss.item():.4f}")
    return (time.time() - t0) / steps


if not os.path.exists(os.path.join(BASE, "config.json")):
    print("building task-A base model")
    cfg = BertConfig(vocab_size=VOCAB, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=128, max_position_embeddings=SEQ, num_labels=6)
    m = BertForSequenceClassification(cfg)
    train(m, synth(4000, "A", 0), 250, 1e-3)
    m.save_pretrained(BASE)

task_a_val = synth(1000, "A", 1)
task_a_model = BertForSequenceClassification.from_pretrained(BASE)
print(f"task A val acc (production model): {accuracy(task_a_model, task_a_val):.4f}")

# ---- new task B head on top of the frozen shared encoder
model = BertForSequenceClassification.from_pretrained(BASE, num_labels=3, ignore_mismatched_sizes=True)
model.bert.requires_grad = False
encoder_before = {k: v.clone() for k, v in model.bert.state_dict().items()}

print("training task-B head")
sec_per_step = train(model, synth(4000, "B", 2), 300, 5e-3)
print(f"task B val acc: {accuracy(model, synth(1000, 'B', 3)):.4f}  ({sec_per_step * 1000:.1f} ms/step)")

# ---- deploy: both heads share one encoder, so task A runs on the encoder saved with task B
changed = [k for k, v in model.bert.state_dict().items() if not torch.equal(v, encoder_before[k])]
print(f"encoder tensors differing from the loaded checkpoint: {len(changed)}/{len(encoder_before)}")
task_a_model.bert.load_state_dict(model.bert.state_dict())
print(f"task A val acc with shared encoder after task-B training: {accuracy(task_a_model, task_a_val):.4f}")
