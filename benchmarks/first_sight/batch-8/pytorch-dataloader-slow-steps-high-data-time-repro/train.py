import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class AugmentedImages(Dataset):
    def __init__(self, n=50000):
        rng = np.random.default_rng(0)
        self.images = rng.integers(0, 255, size=(n, 3, 32, 32), dtype=np.uint8)
        self.labels = rng.integers(0, 10, size=n)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        img = torch.from_numpy(self.images[i]).float() / 255.0
        if np.random.rand() < 0.5:
            img = img.flip(-1)
        dx, dy = np.random.randint(-4, 5, size=2)
        img = torch.roll(img, shifts=(int(dx), int(dy)), dims=(1, 2))
        img = img * (0.8 + 0.4 * np.random.rand()) + 0.1 * (np.random.rand() - 0.5)
        img = torch.nn.functional.avg_pool2d(img.unsqueeze(0), 3, stride=1, padding=1).squeeze(0)
        img = (img.clamp(0, 1) - 0.5) / 0.25
        return img, int(self.labels[i])


def main():
    ds = AugmentedImages()
    train_loader = DataLoader(ds, batch_size=128, shuffle=True, num_workers=2, pin_memory=False)
    model = nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * 8 * 8, 10),
    )
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()

    max_steps = 40
    t_data = t_comp = 0.0
    t_last = time.time()
    for step in range(1, max_steps + 1):
        t0 = time.time()
        x, y = next(iter(train_loader))
        t1 = time.time()
        loss = loss_fn(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        t2 = time.time()
        t_data += t1 - t0
        t_comp += t2 - t1
        if step % 5 == 0:
            now = time.time()
            print(f"step {step:3d}/{max_steps} loss {loss.item():.4f} | {(now - t_last) / 5:.3f} s/step "
                  f"(data {t_data / 5:.3f}s, compute {t_comp / 5:.3f}s) | {5 * 128 / (now - t_last):.0f} img/s",
                  flush=True)
            t_data = t_comp = 0.0
            t_last = now


if __name__ == "__main__":
    main()
