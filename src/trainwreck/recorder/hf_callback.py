"""`TrainwreckCallback`: the always-on recorder inside a transformers `Trainer`.

The Trainer already computes the loss, the learning rate and the grad norm it logs; this
callback writes them from `on_log` into the same `recorder-rank<rank>.jsonl` as
`trainwreck.watch` (one record per logged step), adding the step time and data wait from
its own clock, so `trainwreck diagnose DIR` reads a Trainer run like a plain loop. It sees
only what the Trainer logs: the loss is the mean over `logging_steps`, and with the
Trainer's `logging_nan_inf_filter` on (its default) a non-finite loss is logged as the
running mean, so set it off to see a NaN at its step. Any error in it disables it with one
warning; the training goes on. Lightning's `Callback` is not here (Lightning is not
installed, so one could not be tested).

    trainer = Trainer(..., callbacks=[TrainwreckCallback(out="runs/exp1")])
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from transformers import TrainerCallback, TrainerControl, TrainerState, TrainingArguments

from trainwreck.recorder.watch import EVERY, Recorder, check_every, default_folder, warn_stopped

Hook = Callable[..., None]


class _TrainerRecorder(Recorder):
    name = "TrainwreckCallback"


def _guarded(hook: Hook) -> Hook:
    """Run a callback event only while recording, and turn an error in it into the
    recorder's one warning instead of an exception in the Trainer's loop."""

    @functools.wraps(hook)
    def run(self: TrainwreckCallback, *args: Any, **kwargs: Any) -> None:
        if self.recording:
            try:
                hook(self, *args, **kwargs)
            except Exception as error:
                self.stop(error)

    return run


class TrainwreckCallback(TrainerCallback):
    """Records the Trainer's logged steps into `out`/recorder-rank<process index>.jsonl.

    `out` defaults to trainwreck-runs/<UTC time the callback was made>; give it explicitly
    for a multi-rank run so every rank writes into one folder. The CUDA allocator counters
    go on the first logged record at or after every `every`-th step.
    """

    def __init__(self, out: str | None = None, every: int = EVERY) -> None:
        self.recorder: Recorder | None = None
        self._out = out or default_folder()
        self._every = check_every(every)
        self._failed = False
        self._next_sample = every
        self._step_start: float | None = None
        self._last_end: float | None = None
        self._step_time_s: float | None = None
        self._data_wait_s: float | None = None

    @property
    def recording(self) -> bool:
        """False once an error stopped it (before training starts, True)."""
        return not self._failed and (self.recorder is None or not self.recorder.disabled)

    def stop(self, error: BaseException) -> None:
        """Stop for good with one warning, closing the file if it was open."""
        self._failed = True
        if self.recorder is None:
            warn_stopped(_TrainerRecorder.name, error)
        else:
            self.recorder.disable(error)

    @_guarded
    def on_train_begin(
        self, args: TrainingArguments, state: TrainerState, control: TrainerControl, **kwargs: Any
    ) -> None:
        """Open the file of this process (the Trainer's process index is its rank); a second
        `train()` appends to the same file."""
        if self.recorder is not None:  # a train() that raised never reached on_train_end
            self.recorder.close()
        self.recorder = _TrainerRecorder(self._out, args.process_index)

    @_guarded
    def on_step_begin(
        self, args: TrainingArguments, state: TrainerState, control: TrainerControl, **kwargs: Any
    ) -> None:
        """The Trainer fetched this step's batches before this event: that was the wait."""
        now = time.perf_counter()
        self._data_wait_s = None if self._last_end is None else now - self._last_end
        self._step_start = now

    @_guarded
    def on_step_end(
        self, args: TrainingArguments, state: TrainerState, control: TrainerControl, **kwargs: Any
    ) -> None:
        """Forward, backward and optimizer step of every micro-batch are behind us."""
        now = time.perf_counter()
        if self._step_start is not None:
            self._step_time_s = now - self._step_start
        self._last_end = now

    @_guarded
    def on_log(
        self,
        args: TrainingArguments,
        state: TrainerState,
        control: TrainerControl,
        logs: dict[str, float] | None = None,
        **kwargs: Any,
    ) -> None:
        """Write a training log (one with "loss"; evaluation and summary logs have none)."""
        if self.recorder is not None and logs and "loss" in logs:
            step = state.global_step
            sampled = step >= self._next_sample
            if sampled:
                self._next_sample = (step // self._every + 1) * self._every
            grad_norm, learning_rate = logs.get("grad_norm"), logs.get("learning_rate")
            self.recorder.write(
                step,
                float(logs["loss"]),
                grad_norm=None if grad_norm is None else float(grad_norm),
                learning_rate=None if learning_rate is None else float(learning_rate),
                step_time_s=self._step_time_s,
                data_wait_s=self._data_wait_s,
                sampled=sampled,
            )
        self._last_end = time.perf_counter()  # logging is not waiting for data

    @_guarded
    def on_evaluate(
        self, args: TrainingArguments, state: TrainerState, control: TrainerControl, **kwargs: Any
    ) -> None:
        """Evaluation is not waiting for data either."""
        self._last_end = time.perf_counter()

    @_guarded
    def on_save(
        self, args: TrainingArguments, state: TrainerState, control: TrainerControl, **kwargs: Any
    ) -> None:
        """Nor is saving a checkpoint."""
        self._last_end = time.perf_counter()

    @_guarded
    def on_train_end(
        self, args: TrainingArguments, state: TrainerState, control: TrainerControl, **kwargs: Any
    ) -> None:
        """Write what is queued and close the file."""
        if self.recorder is not None:
            self.recorder.close()
