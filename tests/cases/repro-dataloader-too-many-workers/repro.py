"""Reproduces a DataLoader asked for more worker processes than the CPUs it may use.

num_workers is set to the number of usable CPUs plus 4, so PyTorch warns at
iterator creation that the workers oversubscribe the machine; each epoch then
pays for starting that many processes. Run: python repro.py > train.log 2>&1
"""

import os
import time

import torch
from torch.utils.data import DataLoader, TensorDataset

usable_cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
NUM_WORKERS = (usable_cpus or 1) + 4

if __name__ == "__main__":
    torch.manual_seed(0)
    dataset = TensorDataset(torch.randn(512, 32), torch.randint(0, 4, (512,)))
    loader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=NUM_WORKERS)
    model = torch.nn.Linear(32, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    print(f"usable_cpus={usable_cpus} num_workers={NUM_WORKERS} batch_size=64", flush=True)
    for epoch in range(2):
        start = time.perf_counter()
        for features, labels in loader:
            loss = torch.nn.functional.cross_entropy(model(features), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        elapsed = time.perf_counter() - start
        print(f"epoch {epoch} loss {loss.item():.4f} epoch_time_s {elapsed:.2f} samples_per_s {512 / elapsed:.0f}", flush=True)
