"""Guards on device and host memory: headroom before start, peaks, budgets, RSS."""

from __future__ import annotations

from trainwreck.fixes.guards.base import GuardTemplate

MEM_GET_INFO = "https://android.googlesource.com/platform/external/pytorch/+/bdf5abd6f0%5E%21"
MAX_MEMORY = "https://pytorch.org/docs/1.10.0/generated/torch.cuda.max_memory_allocated.html"
PATHLIB_STAT = "https://github.com/python/cpython/blob/1e7eea5b68d8da4145a55255571195fafe7cf764/Doc/library/pathlib.rst"
PSUTIL = (
    "https://hg.mozilla.org/mozilla-central/file/"
    "0f5799df920bfbf966217fa7a8d511a646a53725/python/psutil/docs/index.rst"
)

_HEADROOM = '''import torch


def check_free_memory(min_free_fraction=$min_free_fraction):
    """Before loading anything: fail when another process holds part of a visible GPU."""
    if not torch.cuda.is_available():
        return []
    report = []
    for index in range(torch.cuda.device_count()):
        free, total = torch.cuda.mem_get_info(index)
        report.append((index, free / total))
        if free < min_free_fraction * total:
            raise RuntimeError(
                f"cuda:{index} has {free / 2**30:.1f} of {total / 2**30:.1f} GiB free, "
                f"under {min_free_fraction:.0%}; another process holds the rest"
            )
    return report

# check_free_memory()  # first thing in the entry point or server start script
'''

_PEAK = '''import torch


def check_peak_memory(step, max_fraction=$max_fraction):
    """Run one step (the largest batch) and fail when its peak passes MAX_FRACTION of the GPU."""
    if not torch.cuda.is_available():
        step()
        return None
    torch.cuda.reset_peak_memory_stats()
    step()
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated()
    total = torch.cuda.get_device_properties(torch.cuda.current_device()).total_memory
    if peak > max_fraction * total:
        raise RuntimeError(
            f"peak {peak / 2**30:.1f} GiB is {peak / total:.0%} of {total / 2**30:.1f} GiB "
            f"(limit {max_fraction:.0%}); lower the micro-batch or sequence length"
        )
    return peak / total

# check_peak_memory(lambda: train_step(longest_batch))
'''

_BUDGET = '''import torch


def check_budget(estimate_bytes, capacity_bytes=None, max_fraction=$max_fraction):
    """Fail when an estimate (e.g. tokens x vocab x 4 bytes) passes MAX_FRACTION of capacity."""
    if capacity_bytes is None:
        capacity_bytes = torch.cuda.mem_get_info()[1]
    if estimate_bytes > max_fraction * capacity_bytes:
        raise RuntimeError(
            f"estimate {estimate_bytes / 2**30:.2f} GiB is over {max_fraction:.0%} of "
            f"{capacity_bytes / 2**30:.1f} GiB"
        )
    return estimate_bytes / capacity_bytes

# check_budget(micro_batch * seq_len * vocab_size * 4)  # fp32 logits of one micro-batch
'''

_HOST_RAM = '''import os

import psutil


def check_host_memory(max_fraction=$max_fraction, pid=None):
    """Fail when this process and its children use more than MAX_FRACTION of RAM."""
    process = psutil.Process(pid or os.getpid())
    rss = process.memory_info().rss
    rss += sum(c.memory_info().rss for c in process.children(recursive=True))
    total = psutil.virtual_memory().total
    if rss > max_fraction * total:
        raise MemoryError(
            f"RSS {rss / 2**30:.1f} GiB is {rss / total:.0%} of {total / 2**30:.1f} GiB RAM"
        )
    return rss / total

# call check_host_memory() every N steps (or before loading a checkpoint)
'''

_CHECKPOINT_SIZE = '''from pathlib import Path


def check_checkpoint_size(path, num_parameters, bytes_per_param=$bytes_per_param,
                          min_fraction=$min_fraction):
    """After a save: the weight files must hold at least MIN_FRACTION of the expected bytes."""
    files = [p for p in Path(path).glob("*") if p.suffix in {".safetensors", ".bin", ".pt"}]
    size = sum(p.stat().st_size for p in files)
    expected = num_parameters * bytes_per_param
    if size < min_fraction * expected:
        raise RuntimeError(
            f"{path} holds {size / 2**30:.2f} GiB of weights, under {min_fraction:.0%} of "
            f"{expected / 2**30:.2f} GiB expected: were sharded weights gathered?"
        )
    return size / expected

# check_checkpoint_size(output_dir, sum(p.numel() for p in model.parameters()))
'''

TEMPLATES = (
    GuardTemplate(
        "memory-headroom",
        "torch.cuda.mem_get_info before start: refuse a GPU others already use",
        {"min_free_fraction": 0.9},
        MEM_GET_INFO,
        _HEADROOM,
    ),
    GuardTemplate(
        "peak-memory",
        "run the largest step and compare max_memory_allocated with the GPU",
        {"max_fraction": 0.9},
        MAX_MEMORY,
        _PEAK,
    ),
    GuardTemplate(
        "byte-budget",
        "compare an arithmetic memory estimate with a share of device memory",
        {"max_fraction": 0.15},
        MEM_GET_INFO,
        _BUDGET,
    ),
    GuardTemplate(
        "checkpoint-size",
        "after a save, compare the weight files' size with parameters x bytes",
        {"bytes_per_param": 2, "min_fraction": 0.9},
        PATHLIB_STAT,
        _CHECKPOINT_SIZE,
    ),
    GuardTemplate(
        "host-ram",
        "fail when the process tree's RSS passes a share of RAM",
        {"max_fraction": 0.85},
        PSUTIL,
        _HOST_RAM,
    ),
)
