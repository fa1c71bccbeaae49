"""Guards on the data path: lengths, token ranges, loaders, workers, shared memory."""

from __future__ import annotations

from trainwreck.fixes.guards.base import GuardTemplate

DATALOADER = "https://pytorch.org/docs/1.7.0/_modules/torch/utils/data/dataloader.html"
EMBEDDING = "https://pytorch.org/docs/1.7.1/generated/torch.nn.Embedding.html"
SCHED_AFFINITY = "https://github.com/python/cpython/pull/110226.diff"
DISK_USAGE = "https://www.python.org/pipermail/python-checkins/2011-July/106348.html"
TOKENIZER_BASE = "https://github.com/huggingface/transformers/blob/v4.44.0/src/transformers/tokenization_utils_base.py"

_LENGTHS = '''def check_lengths(lengths, max_length=$max_length,
                  max_over_fraction=$max_over_fraction):
    """Fail when more than MAX_OVER_FRACTION of samples exceed MAX_LENGTH tokens."""
    lengths = list(lengths)
    over = sum(1 for n in lengths if n > max_length)
    share = over / max(len(lengths), 1)
    if share > max_over_fraction:
        raise ValueError(
            f"{over} of {len(lengths)} samples ({share:.1%}) exceed {max_length} tokens; "
            "truncate or raise the max length"
        )
    return share

# check_lengths(len(ids) for ids in tokenized["input_ids"])
'''

_TOKEN_RANGE = '''def check_token_range(batch, model, num_labels=None,
                      max_out_of_range=$max_out_of_range):
    """Fail when token ids, positions or labels fall outside the model's tables."""
    ids = batch["input_ids"]
    rows = model.get_input_embeddings().num_embeddings
    bad = int((ids >= rows).sum()) + int((ids < 0).sum())
    positions = getattr(model.config, "max_position_embeddings", None)
    if positions is not None and ids.shape[-1] > positions:
        bad += 1
    labels = batch.get("labels")
    if num_labels is not None and labels is not None:
        bad += int(((labels < 0) | (labels >= num_labels)).sum())
    if bad > max_out_of_range:
        raise IndexError(
            f"{bad} ids/labels out of range (embedding rows {rows}, positions {positions}, "
            f"labels {num_labels})"
        )

# for batch in itertools.islice(loader, 200): check_token_range(batch, model)
'''

_LOADER_SMOKE = '''import pickle
import time


def smoke_test_loader(loader, batches=$batches, time_limit_s=$time_limit_s):
    """Pickle the loader's parts (as spawn workers must) and fetch the first BATCHES in time."""
    for part in (loader.dataset, loader.collate_fn, loader.sampler):
        pickle.dumps(part)
    start = time.perf_counter()
    for i, _ in enumerate(loader):
        if time.perf_counter() - start > time_limit_s:
            raise TimeoutError(f"batch {i} arrived after {time_limit_s} s")
        if i + 1 >= batches:
            break
    return time.perf_counter() - start

# smoke_test_loader(train_dataloader)  # in CI with the real collate_fn and batch size
'''

_DATA_WAIT = '''import time
from collections import deque


class DataWaitMonitor:
    """Wrap a loader; fail when waiting for data exceeds MAX_WAIT_FRACTION of step time."""

    def __init__(self, loader, max_wait_fraction=$max_wait_fraction, window=$window,
                 max_single_wait_s=$max_single_wait_s):
        self.loader, self.max_wait_fraction = loader, max_wait_fraction
        self.max_single_wait_s = max_single_wait_s
        self.waits, self.steps = deque(maxlen=window), deque(maxlen=window)

    def __iter__(self):
        last = time.perf_counter()
        for batch in self.loader:
            got = time.perf_counter()
            self.waits.append(got - last if self.steps else 0.0)
            if self.waits[-1] > self.max_single_wait_s:
                raise TimeoutError(f"waited {self.waits[-1]:.0f} s for one batch")
            yield batch
            now = time.perf_counter()
            self.steps.append(now - last)
            last = now
            self._check()

    def _check(self):
        if len(self.steps) < self.steps.maxlen:
            return
        share = sum(self.waits) / max(sum(self.steps), 1e-9)
        if share > self.max_wait_fraction:
            raise RuntimeError(f"data wait is {share:.0%} of step time; add workers")

# for batch in DataWaitMonitor(train_loader): ...
'''

_NUM_WORKERS = '''import os


def max_workers(local_world_size=1, reserve=$reserve):
    """The most DataLoader workers each local rank can use without oversubscribing CPUs."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(0, cpus // max(local_world_size, 1) - reserve)


def check_num_workers(num_workers, local_world_size=1):
    limit = max_workers(local_world_size)
    if num_workers > limit:
        raise ValueError(f"num_workers={num_workers} > {limit} usable CPUs per rank")

# check_num_workers(args.dataloader_num_workers, int(os.environ.get("LOCAL_WORLD_SIZE", 1)))
'''

_SHM = '''import shutil


def check_shm(batch_bytes, num_workers, prefetch_factor=2, factor=$factor, min_gib=$min_gib):
    """Fail when /dev/shm is under FACTOR x the bytes workers keep in flight, or MIN_GIB."""
    total = shutil.disk_usage("/dev/shm").total
    need = max(factor * batch_bytes * num_workers * prefetch_factor, min_gib * 2**30)
    if total < need:
        raise RuntimeError(
            f"/dev/shm is {total / 2**30:.1f} GiB, need {need / 2**30:.1f} GiB: "
            "raise --shm-size or lower num_workers"
        )

# check_shm(batch_bytes=batch_size * 3 * 224 * 224 * 4, num_workers=8)
'''

TEMPLATES = (
    GuardTemplate(
        "length-coverage",
        "fail when too many samples exceed the max length",
        {"max_length": 2048, "max_over_fraction": 0.01},
        TOKENIZER_BASE,
        _LENGTHS,
    ),
    GuardTemplate(
        "token-range",
        "fail when ids, positions or labels fall outside the model's tables",
        {"max_out_of_range": 0},
        EMBEDDING,
        _TOKEN_RANGE,
    ),
    GuardTemplate(
        "loader-smoke",
        "pickle the loader's parts and fetch the first batches within a time limit",
        {"batches": 10, "time_limit_s": 60},
        DATALOADER,
        _LOADER_SMOKE,
    ),
    GuardTemplate(
        "data-wait",
        "fail when data wait exceeds a share of step time",
        {"max_wait_fraction": 0.2, "window": 100, "max_single_wait_s": 60},
        DATALOADER,
        _DATA_WAIT,
    ),
    GuardTemplate(
        "num-workers",
        "cap num_workers by the CPUs this process may use",
        {"reserve": 1},
        SCHED_AFFINITY,
        _NUM_WORKERS,
    ),
    GuardTemplate(
        "shm-size",
        "fail when /dev/shm cannot hold the batches workers keep in flight",
        {"factor": 2.0, "min_gib": 1.0},
        DISK_USAGE,
        _SHM,
    ),
)
