"""Broken on purpose: variable-length token sequences go through the default collate."""
import torch
from torch.utils.data import DataLoader, Dataset


class Ragged(Dataset):
    def __init__(self):
        g = torch.Generator().manual_seed(0)
        self.items = [torch.randint(0, 1000, (int(n),), generator=g)
                      for n in torch.randint(20, 60, (64,), generator=g)]
    def __len__(self):
        return len(self.items)
    def __getitem__(self, i):
        return {"input_ids": self.items[i], "labels": self.items[i].clone()}

loader = DataLoader(Ragged(), batch_size=8, shuffle=False)
print(f"dataset size {len(loader.dataset)}, batch_size 8", flush=True)
for step, batch in enumerate(loader):
    print(step, batch["input_ids"].shape)
