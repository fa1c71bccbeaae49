"""News-article topic classifier with an auxiliary language-ID head (multi-task), accelerate.

Only the articles that went through the manual QA pass have a language label
(lang = -1 for the others), so the auxiliary loss is added for the labelled articles only.

Launch:  torchrun --nproc_per_node 2 train.py
"""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, Dataset

VOCAB, EMB, N_TOPICS, N_LANGS = 20_000, 96, 8, 5
AUX_WEIGHT = 0.3


class Articles(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.topic = torch.randint(0, N_TOPICS, (n,), generator=g)
        self.lang = torch.randint(0, N_LANGS, (n,), generator=g)
        self.tokens = torch.randint(100, VOCAB, (n, 120), generator=g)
        self.tokens[:, :6] = (self.topic * 10 + 1000).unsqueeze(1) + torch.arange(6)
        self.tokens[:, 6:9] = (self.lang * 7 + 2000).unsqueeze(1) + torch.arange(3)
        qa = torch.rand(n, generator=g) < 0.03          # ~3% went through manual QA
        self.lang_label = torch.where(qa, self.lang, torch.full_like(self.lang, -1))

    def __len__(self):
        return len(self.topic)

    def __getitem__(self, i):
        return self.tokens[i], self.topic[i], self.lang_label[i]


class MultiTaskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.EmbeddingBag(VOCAB, EMB, mode="mean")
        self.body = nn.Sequential(nn.Linear(EMB, 128), nn.ReLU(), nn.Dropout(0.1))
        self.topic_head = nn.Linear(128, N_TOPICS)
        self.lang_head = nn.Linear(128, N_LANGS)

    def forward(self, tokens):
        h = self.body(self.emb(tokens))
        return self.topic_head(h), self.lang_head(h)


def main():
    accelerator = Accelerator(cpu=True)
    set_seed(0)
    train_dl = DataLoader(Articles(20_000, 0), batch_size=32, shuffle=True)
    model = MultiTaskNet()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    model, opt, train_dl = accelerator.prepare(model, opt, train_dl)
    accelerator.print(f"{accelerator.num_processes} processes on {accelerator.device}, "
                      f"{len(train_dl)} steps/epoch/process")

    for epoch in range(2):
        t0 = time.time()
        for step, (tokens, topic, lang) in enumerate(train_dl):
            topic_logits, lang_logits = model(tokens)
            loss = F.cross_entropy(topic_logits, topic)
            has_lang = lang >= 0
            if has_lang.any():
                loss = loss + AUX_WEIGHT * F.cross_entropy(lang_logits[has_lang], lang[has_lang])
            opt.zero_grad()
            accelerator.backward(loss)
            opt.step()
            if step % 50 == 0:
                accelerator.print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
        accelerator.print(f"epoch {epoch} done in {time.time() - t0:.1f}s")
    accelerator.wait_for_everyone()
    accelerator.save_model(model, "topic-model")


if __name__ == "__main__":
    main()
