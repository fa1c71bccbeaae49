"""Reproduces a causal LM trained on padding: labels padded with pad_token_id, not -100.

Short token sequences (3-8 tokens) are right-padded to 32 with pad id 0 and the
labels are a plain copy of input_ids, so about 80% of the label positions are
padding and cross_entropy (ignore_index=-100) scores them all. The loss drops fast
because predicting "pad after pad" is trivial; greedy generation then answers with
padding. Run: python repro.py > train.log
"""

import torch

PAD, VOCAB, SEQ, BATCH, STEPS, LR = 0, 64, 32, 16, 150, 3e-3
torch.manual_seed(0)


def make_batch():
    rows = []
    for _ in range(BATCH):
        length = int(torch.randint(3, 9, ()))
        start = int(torch.randint(1, VOCAB - 10, ()))
        rows.append(list(range(start, start + length)) + [PAD] * (SEQ - length))
    input_ids = torch.tensor(rows)
    return input_ids, input_ids.clone()  # bug: pad positions stay in the labels


class TinyLM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(VOCAB, 64)
        self.rnn = torch.nn.GRU(64, 64, batch_first=True)
        self.head = torch.nn.Linear(64, VOCAB)

    def forward(self, ids):
        return self.head(self.rnn(self.embed(ids))[0])


model = TinyLM()
optimizer = torch.optim.AdamW(model.parameters(), lr=LR)
input_ids, labels = make_batch()
print(f"pad_token_id={PAD} max_length={SEQ} learning_rate={LR}")
print({"input_ids": input_ids[0].tolist(), "labels": labels[0].tolist()})
for step in range(1, STEPS + 1):
    input_ids, labels = make_batch()
    logits = model(input_ids)[:, :-1]
    loss = torch.nn.functional.cross_entropy(
        logits.reshape(-1, VOCAB), labels[:, 1:].reshape(-1), ignore_index=-100
    )
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 15 == 0:
        print({"loss": round(loss.item(), 4), "learning_rate": LR, "step": step})
with torch.no_grad():
    ids = torch.tensor([[20, 21, 22]])
    for _ in range(8):
        ids = torch.cat([ids, model(ids)[:, -1].argmax(-1, keepdim=True)], dim=1)
print(f"prompt: [20, 21, 22] generated: {ids[0, 3:].tolist()}")
