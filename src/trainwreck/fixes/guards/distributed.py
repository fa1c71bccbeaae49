"""Guards for multi-process jobs: timeouts, rank agreement, watchdogs, rendezvous, sizes."""

from __future__ import annotations

from trainwreck.fixes.guards.base import GuardTemplate

C10D = "https://github.com/pytorch/pytorch/blob/6170845ea8a4b7bd51506e31b76f3ad9e2e140b9/torch/distributed/distributed_c10d.py"
FAULTHANDLER = "https://docs.python.org/3.12/library/faulthandler.html"
SOCKET = "https://www.python.org/pipermail/python-checkins/2012-January/110246.html"
DIVMOD = "https://github.com/python/cpython/blob/5d706e317bf72df54db491e185134fbaa7b2678d/Doc/library/functions.rst"
DEVICE_COUNT = "https://github.com/pytorch/pytorch/blob/17e3b6a97af175f377f42b52cf20d4c758a432a9/torch/cuda/__init__.py"

_COLLECTIVE = '''import os
import time
from datetime import timedelta

import torch
import torch.distributed as dist


def init_with_probe(timeout_s=$timeout_s, probe_limit_s=$probe_limit_s):
    """init_process_group with an explicit timeout, then a timed all_reduce across all ranks."""
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    if not dist.is_initialized():
        dist.init_process_group(backend, timeout=timedelta(seconds=timeout_s))
    device = "cpu"
    if backend == "nccl":
        torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", 0)))
        device = "cuda"
    start = time.perf_counter()
    probe = torch.ones(1, device=device)
    dist.all_reduce(probe)
    elapsed = time.perf_counter() - start
    if int(probe.item()) != dist.get_world_size() or elapsed > probe_limit_s:
        raise RuntimeError(
            f"rank {dist.get_rank()}: all_reduce gave {probe.item()} in {elapsed:.1f} s "
            f"(world size {dist.get_world_size()}, limit {probe_limit_s} s)"
        )
    return elapsed

# init_with_probe()  # instead of a bare dist.init_process_group()
'''

_RANK_AGREEMENT = '''import torch.distributed as dist


def check_ranks_agree(name, value, max_difference=$max_difference):
    """Fail fast when ranks disagree on a value (steps per epoch, metric keys, world size)."""
    if not dist.is_initialized():
        return [value]
    values = [None] * dist.get_world_size()
    dist.all_gather_object(values, value)
    if all(isinstance(v, (int, float)) for v in values):
        spread = max(values) - min(values)
        agree = spread <= max_difference
    else:
        agree = all(v == values[0] for v in values)
    if not agree:
        raise RuntimeError(f"ranks disagree on {name}: {values}")
    return values

# check_ranks_agree("steps per epoch", len(train_dataloader))
'''

_WATCHDOG = '''import faulthandler
import sys
import time
from contextlib import contextmanager


@contextmanager
def phase_watchdog(name, timeout_s=$timeout_s, warn_fraction=$warn_fraction):
    """Dump every thread's stack if a phase runs past TIMEOUT_S; warn past WARN_FRACTION."""
    faulthandler.dump_traceback_later(timeout_s, exit=False, file=sys.stderr)
    start = time.perf_counter()
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
        elapsed = time.perf_counter() - start
        if elapsed > warn_fraction * timeout_s:
            print(f"{name} took {elapsed:.0f} s, over {warn_fraction:.0%} of {timeout_s} s",
                  file=sys.stderr)

# with phase_watchdog("checkpoint save"): trainer.save_model()
'''

_TCP_PROBE = '''import os
import socket


def probe_rendezvous(host=None, port=None, timeout_s=$timeout_s):
    """Before launching: fail when MASTER_ADDR:MASTER_PORT does not accept a TCP connection."""
    host = host or os.environ.get("MASTER_ADDR", "127.0.0.1")
    port = int(port or os.environ.get("MASTER_PORT", 29500))
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            return True
    except OSError as exc:
        raise RuntimeError(f"cannot reach {host}:{port} within {timeout_s} s: {exc}") from exc

# run on every node once the rank-0 store is up: probe_rendezvous()
'''

_DIVISIBLE = '''def check_divisible(checks, max_remainder=$max_remainder,
                    min_quotient=$min_quotient):
    """Each (name, numerator, denominator) must divide evenly, at least MIN_QUOTIENT times."""
    for name, numerator, denominator in checks:
        quotient, remainder = divmod(numerator, denominator)
        if remainder > max_remainder or quotient < min_quotient:
            raise ValueError(
                f"{name}: {numerator} / {denominator} leaves {remainder} (quotient {quotient})"
            )

# check_divisible([("heads / tp", config.num_attention_heads, tensor_parallel_size),
#                  ("global batch / (micro x world)", 64, 4 * world_size)])
'''

_DEVICES = '''import os

import torch


def check_devices(model, batch=None, max_devices=$max_devices):
    """Fail on a rank beyond the GPUs, a model spread over devices, or a batch elsewhere."""
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    if torch.cuda.is_available() and local_rank >= torch.cuda.device_count():
        raise RuntimeError(f"LOCAL_RANK {local_rank} >= {torch.cuda.device_count()} GPUs")
    devices = {p.device for p in model.parameters()} | {b.device for b in model.buffers()}
    if len(devices) > max_devices:
        raise RuntimeError(f"model spans {sorted(map(str, devices))}; set device_map on purpose")
    home = next(iter(devices))
    for key, value in (batch or {}).items():
        if torch.is_tensor(value) and value.device != home:
            raise RuntimeError(f"batch[{key!r}] is on {value.device}, model on {home}")

# check_devices(model, first_batch)
'''

TEMPLATES = (
    GuardTemplate(
        "collective-probe",
        "init_process_group with an explicit timeout and a timed all_reduce",
        {"timeout_s": 600, "probe_limit_s": 60},
        C10D,
        _COLLECTIVE,
    ),
    GuardTemplate(
        "rank-agreement",
        "all_gather a value and fail when ranks disagree",
        {"max_difference": 0},
        C10D,
        _RANK_AGREEMENT,
    ),
    GuardTemplate(
        "phase-watchdog",
        "dump all stacks when a phase runs past a timeout",
        {"timeout_s": 600, "warn_fraction": 0.5},
        FAULTHANDLER,
        _WATCHDOG,
    ),
    GuardTemplate(
        "tcp-probe",
        "TCP-connect to MASTER_ADDR:MASTER_PORT before launching",
        {"timeout_s": 5},
        SOCKET,
        _TCP_PROBE,
    ),
    GuardTemplate(
        "divisible",
        "check sizes that must divide evenly (heads / tp, batch arithmetic, steps)",
        {"max_remainder": 0, "min_quotient": 1},
        DIVMOD,
        _DIVISIBLE,
    ),
    GuardTemplate(
        "device-placement",
        "fail on ranks beyond the GPUs or tensors on the wrong device",
        {"max_devices": 1},
        DEVICE_COUNT,
        _DEVICES,
    ),
)
