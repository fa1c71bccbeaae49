"""Defect classifier on synthetic 160x160 inspection images, with a background prefetch thread."""
import queue
import resource
import threading
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# job memory allowance on the shared inspection box
resource.setrlimit(resource.RLIMIT_AS, (4 * 1024 ** 3, 4 * 1024 ** 3))

torch.manual_seed(0)
IMG, CROP, BATCH, EPOCHS, N_IMAGES = 192, 160, 128, 3, 6144
MEAN, STD = 0.45, 0.22


def render_batch(rng, n):
    """Stand-in for JPEG decode: grey texture, defects are a bright scratch."""
    imgs = rng.normal(0.45, 0.1, size=(n, 3, IMG, IMG)).astype(np.float32)
    labels = rng.integers(0, 2, size=n)
    for k in np.nonzero(labels)[0]:
        r = rng.integers(20, IMG - 20)
        imgs[k, :, r:r + 3, 10:IMG - 10] += 0.5
    return imgs, labels


def augment(imgs, rng):
    y0, x0 = rng.integers(0, IMG - CROP, size=2)
    out = imgs[:, :, y0:y0 + CROP, x0:x0 + CROP]
    if rng.random() < 0.5:
        out = out[:, :, :, ::-1]
    return np.ascontiguousarray((out - MEAN) / STD)


class Prefetcher:
    def __init__(self, epochs, batches_per_epoch, seed=0):
        self.q = queue.Queue()
        self.total = epochs * batches_per_epoch
        self.rng = np.random.default_rng(seed)
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        for _ in range(self.total):
            imgs, labels = render_batch(self.rng, BATCH)
            self.q.put((torch.from_numpy(augment(imgs, self.rng)), torch.from_numpy(labels)))
        self.q.put(None)

    def __iter__(self):
        while True:
            item = self.q.get()
            if item is None:
                return
            yield item


def rss_mb():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) / 1024 for l in f if l.startswith("VmRSS"))


model = nn.Sequential(
    nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
    nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
    nn.Conv2d(64, 128, 3, stride=2, padding=1), nn.BatchNorm2d(128), nn.ReLU(),
    nn.Conv2d(128, 128, 3, stride=2, padding=1), nn.BatchNorm2d(128), nn.ReLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(128, 2),
)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
batches_per_epoch = N_IMAGES // BATCH
loader = Prefetcher(EPOCHS, batches_per_epoch)
print(f"{batches_per_epoch} batches/epoch x {EPOCHS} epochs, batch {BATCH}x3x{CROP}x{CROP}", flush=True)

t0 = time.time()
correct = seen = 0
for step, (x, y) in enumerate(loader):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    correct += (logits.argmax(1) == y).sum().item()
    seen += len(y)
    if step % 5 == 0:
        print(f"step {step:4d} epoch {step // batches_per_epoch} loss {loss.item():.4f} "
              f"acc {correct / seen:.3f} {(step + 1) / (time.time() - t0):.2f} it/s rss {rss_mb():.0f} MB",
              flush=True)
    if (step + 1) % batches_per_epoch == 0:
        correct = seen = 0
torch.save(model.state_dict(), "defect_cnn.pt")
print("saved defect_cnn.pt")
