"""`trainwreck.watch`: an always-on recorder for a plain training loop.

A crash leaves the run's last steps on disk as a metric history that `trainwreck diagnose`
reads like any other JSONL (`step`, `loss`, `learning_rate`, `grad_norm`), so a NaN in it
is the curves' non-finite onset. It has to cost next to nothing per step: one host
read of the loss (one `.tolist()`, with the grad norm on sampled steps), a few clock
reads, and a record handed to a background writer. It must never break training: any
error in it disables it with one warning.

    handle = trainwreck.watch(model, optimizer, out="runs/exp1")
    for batch in loader:
        loss = model(batch).mean(); loss.backward(); optimizer.step(); optimizer.zero_grad()
        handle.step(loss)
    handle.close()

`recorder/hf_callback.py` records a transformers Trainer run into the same file through the
same `Recorder`; a Lightning callback is not here (Lightning is not installed to test one).
"""

from __future__ import annotations

import atexit
import contextlib
import math
import os
import signal
import threading
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Any

import torch

from trainwreck.recorder.writer import JsonlWriter, Record

# The default for `every`: the grad norm (a pass over every gradient) and the CUDA memory
# counters are read on one step in this many. On the small transformer of
# benchmarks/recorder_overhead.py (one CPU thread) a grad norm took 53 us against a 4.6 ms
# step, about 1.1%; on one step in 10 that is ~0.1%, a thirtieth of the 3% issue 21 allows.
EVERY = 10
# The run folder when `out` is not given (one per start, so runs never share a file).
DEFAULT_ROOT = "trainwreck-runs"


def check_every(every: int) -> int:
    """`every` as given, refused below 1 (a sampling interval of 0 steps means nothing)."""
    if every < 1:
        raise ValueError(f"every must be at least 1, got {every}")
    return every


def default_folder() -> str:
    """trainwreck-runs/<UTC start time>, the folder of a recorder given no `out`."""
    return str(Path(DEFAULT_ROOT) / time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()))


def warn_stopped(name: str, error: BaseException) -> None:
    """The one warning a recorder gives when an error turns it off."""
    warnings.warn(
        f"{name} stopped recording after an error; training goes on: {error!r}",
        RuntimeWarning,
        stacklevel=4,
    )


class Recorder:
    """One process's `recorder-rank<rank>.jsonl`: step records in, a background writer out.

    `watch` and the transformers callback both write through it, so their files read alike;
    it flushes on SIGTERM (chained to the handler before it) and at exit, and any error in it
    becomes one warning and silence.
    """

    name = "trainwreck recorder"  # who the warning names

    def __init__(self, out: str, rank: int) -> None:
        Path(out).mkdir(parents=True, exist_ok=True)
        self.path = str(Path(out) / f"recorder-rank{rank}.jsonl")
        self.first_nonfinite_step: int | None = None
        self.disabled = self._closed = False
        self._writer = JsonlWriter(self.path, self.disable)
        self._previous_sigterm: Any = None
        if threading.current_thread() is threading.main_thread():
            self._previous_sigterm = signal.signal(signal.SIGTERM, self._on_sigterm)
        atexit.register(self.close)

    def write(
        self,
        step: int,
        loss: float,
        *,
        grad_norm: float | None,
        learning_rate: float | None,
        step_time_s: float | None,
        data_wait_s: float | None,
        sampled: bool,
    ) -> None:
        """Queue one step's record; the CUDA allocator counters go on sampled steps only."""
        record: Record = {"step": step, "time": time.time(), "loss": loss}
        if grad_norm is not None:
            record["grad_norm"] = grad_norm
        if learning_rate is not None:
            record["learning_rate"] = learning_rate
        if step_time_s is not None:
            record["step_time_s"] = step_time_s
        if data_wait_s is not None:
            record["data_wait_s"] = data_wait_s
        if sampled and torch.cuda.is_available() and torch.cuda.is_initialized():  # type: ignore[no-untyped-call]
            record.update(_cuda_memory())
        if self._writer.dropped:
            record["records_dropped"] = self._writer.dropped
        self._writer.put(record)
        if self.first_nonfinite_step is None and not math.isfinite(loss):
            self.first_nonfinite_step = step

    def close(self) -> None:
        """Write what is queued and stop recording; later calls do nothing."""
        if self._closed:
            return
        self._closed = True
        try:
            self._release()
            atexit.unregister(self.close)
            ours = signal.getsignal(signal.SIGTERM) == self._on_sigterm
            if ours and threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGTERM, self._previous_sigterm)
        finally:
            self._writer.close()

    def disable(self, error: BaseException) -> None:
        """Stop for good after an error, with one warning; never raises."""
        if self.disabled:
            return
        self.disabled = True
        warn_stopped(self.name, error)
        with contextlib.suppress(Exception):  # the recorder is off; its cleanup must not raise
            self.close()

    def _release(self) -> None:
        """Detach what a subclass attached to the training; called once, on close."""

    def _on_sigterm(self, signum: int, frame: FrameType | None) -> None:
        """Flush and close, then do what the handler before ours would have done."""
        previous = self._previous_sigterm
        self.close()
        if callable(previous):
            previous(signum, frame)
        elif previous == signal.SIG_DFL:  # close() restored it: die of the signal as usual
            os.kill(os.getpid(), signum)


class Watch(Recorder):
    """The recorder of a plain loop: call `step(loss)` once per optimizer step, then `close()`."""

    name = "trainwreck.watch"

    def __init__(
        self, model: torch.nn.Module, optimizer: torch.optim.Optimizer | None, out: str, every: int
    ) -> None:
        self._every = check_every(every)
        self.steps = 0
        self._optimizer = optimizer
        self._params = [p for p in model.parameters() if p.requires_grad]
        self._last_end = time.perf_counter()
        self._forward_start: float | None = None
        self._norm: torch.Tensor | None = None
        self._hooks: list[torch.utils.hooks.RemovableHandle] = []
        super().__init__(out, int(os.environ.get("RANK", "0")))
        self._hooks.append(model.register_forward_pre_hook(self._on_forward))
        if optimizer is not None:
            self._hooks.append(optimizer.register_step_pre_hook(self._on_optimizer_step))

    def step(self, loss: torch.Tensor | float) -> None:
        """Record one step; call it right after `optimizer.step()`."""
        if self.disabled:
            return
        try:
            self._record(loss)
            self._last_end = time.perf_counter()
            self._forward_start = None
        except Exception as error:
            self.disable(error)

    def _record(self, loss: torch.Tensor | float) -> None:
        now = time.perf_counter()
        self.steps += 1
        sampled = self.steps % self._every == 0
        norm, self._norm = self._norm, None
        if sampled and norm is None:  # no optimizer to hook: the gradients, if still there
            norm = _grad_norm(self._params)
        value, grad_norm = _read(loss, norm)
        started = self._forward_start if self._forward_start is not None else self._last_end
        waited = None if self._forward_start is None else self._forward_start - self._last_end
        self.write(
            self.steps,
            value,
            grad_norm=grad_norm,
            learning_rate=None
            if self._optimizer is None
            else float(self._optimizer.param_groups[0]["lr"]),
            step_time_s=now - started,
            data_wait_s=waited,
            sampled=sampled,
        )

    def _release(self) -> None:
        for hook in self._hooks:
            hook.remove()

    def _on_forward(self, module: torch.nn.Module, args: tuple[Any, ...]) -> None:
        """The first forward after a step ends the wait for data."""
        if self._forward_start is None:
            self._forward_start = time.perf_counter()

    def _on_optimizer_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        """On a sampled step, the norm of the gradients the optimizer is about to apply (a
        loop may zero them before calling `step`)."""
        if self.disabled or (self.steps + 1) % self._every:
            return
        try:
            self._norm = _grad_norm(self._params)
        except Exception as error:
            self.disable(error)


def _grad_norm(params: Sequence[torch.Tensor]) -> torch.Tensor | None:
    """The global L2 norm of the gradients, as a tensor (not read to the host here)."""
    grads = [p.grad for p in params if p.grad is not None]
    return torch.nn.utils.get_total_norm(grads) if grads else None


def _read(loss: torch.Tensor | float, norm: torch.Tensor | None) -> tuple[float, float | None]:
    """Loss and grad norm as floats, with one device-to-host read for both."""
    if not isinstance(loss, torch.Tensor):
        return float(loss), None if norm is None else norm.item()
    value = loss.detach().reshape(())
    if norm is None:
        return value.item(), None
    both = torch.stack([value.float(), norm.float().to(value.device)]).tolist()
    return both[0], both[1]


def _cuda_memory() -> Record:
    """The caching allocator's counters for the current device (host-side, no sync)."""
    return {
        "cuda_allocated_bytes": torch.cuda.memory_allocated(),
        "cuda_reserved_bytes": torch.cuda.memory_reserved(),
        "cuda_peak_allocated_bytes": torch.cuda.max_memory_allocated(),
    }


def watch(
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer | None = None,
    out: str | None = None,
    every: int = EVERY,
) -> Watch:
    """Start recording `model`'s training into `out`/recorder-rank<RANK>.jsonl.

    `out` defaults to trainwreck-runs/<UTC start time>; give it explicitly for a multi-rank
    run so every rank writes into one folder.
    """
    return Watch(model, optimizer, out or default_folder(), every)
