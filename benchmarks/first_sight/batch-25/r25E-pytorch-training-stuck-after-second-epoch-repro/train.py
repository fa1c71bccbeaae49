"""Sensor-window classifier with non-blocking checkpointing (the NFS mount is slow, so saves run
on a background thread and training only waits for them at epoch boundaries)."""
import faulthandler
import os
import queue
import sys
import tempfile
import threading
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

SAVE_EVERY = 100          # steps
EPOCHS = 4
STALL_TIMEOUT = 60        # seconds without progress before the watchdog dumps stacks and exits
CKPT_DIR = os.path.join(tempfile.gettempdir(), "sensor_ckpts")


class AsyncCheckpointer:
    def __init__(self, directory):
        os.makedirs(directory, exist_ok=True)
        self.dir = directory
        self.q = queue.Queue()
        self.last_step = -1
        self.thread = threading.Thread(target=self._worker, name="ckpt-writer", daemon=True)
        self.thread.start()

    def _worker(self):
        while True:
            job = self.q.get()
            if job is None:
                self.q.task_done()
                return
            step, state = job
            if step == self.last_step:      # same snapshot already on disk
                continue
            path = os.path.join(self.dir, f"step_{step:06d}.pt")
            torch.save(state, path + ".tmp")
            os.replace(path + ".tmp", path)
            self.last_step = step
            self.q.task_done()

    def submit(self, step, model, optimizer):
        state = {"step": step,
                 "model": {k: v.detach().clone() for k, v in model.state_dict().items()},
                 "optimizer": optimizer.state_dict()}
        self.q.put((step, state))

    def wait(self):
        self.q.join()

    def close(self):
        self.q.put(None)
        self.q.join()


def make_windows(n, g):
    t = torch.linspace(0, 1, 128)
    y = torch.randint(0, 5, (n,), generator=g)
    freq = (3 + 4 * y).float().unsqueeze(1)
    x = torch.sin(2 * torch.pi * freq * t + 6.28 * torch.rand(n, 1, generator=g))
    x = x + 1.5 * torch.randn(n, 128, generator=g)
    return x.unsqueeze(1), y


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1, self.c2 = nn.Conv1d(1, 32, 7, padding=3), nn.Conv1d(32, 64, 5, padding=2)
        self.fc = nn.Linear(64, 5)

    def forward(self, x):
        x = F.max_pool1d(F.relu(self.c1(x)), 2)
        x = F.relu(self.c2(x)).mean(-1)
        return self.fc(x)


def main():
    faulthandler.enable()
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    xtr, ytr = make_windows(8000, g)
    xva, yva = make_windows(1000, g)
    dl = DataLoader(TensorDataset(xtr, ytr), batch_size=32, shuffle=True)
    model = Net()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    ckpt = AsyncCheckpointer(CKPT_DIR)
    print(f"steps/epoch={len(dl)} save_every={SAVE_EVERY} ckpt_dir={CKPT_DIR}", flush=True)

    step = 0
    for epoch in range(1, EPOCHS + 1):
        model.train()
        t0 = time.time()
        for xb, yb in dl:
            faulthandler.dump_traceback_later(STALL_TIMEOUT, exit=True)
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad(); loss.backward(); opt.step()
            step += 1
            if step % SAVE_EVERY == 0:
                ckpt.submit(step, model, opt)
            if step % 50 == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
        ckpt.submit(step, model, opt)           # end-of-epoch checkpoint
        print(f"epoch {epoch} finished in {time.time() - t0:.1f}s, waiting for checkpoint writer ...", flush=True)
        faulthandler.dump_traceback_later(STALL_TIMEOUT, exit=True)
        ckpt.wait()
        model.eval()
        with torch.no_grad():
            acc = (model(xva).argmax(1) == yva).float().mean().item()
        print(f"epoch {epoch} checkpoint step_{step:06d}.pt written, val_acc {acc:.4f}", flush=True)
    faulthandler.cancel_dump_traceback_later()
    ckpt.close()
    print("training complete", flush=True)


if __name__ == "__main__":
    main()
