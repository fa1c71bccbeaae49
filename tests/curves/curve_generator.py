"""Synthetic training curves with planted events, for the detector tests and benchmark.

Realistic shape: an exponential decay to a floor with AR(1) noise on the log
scale, a grad norm with its own noise, warmup plus cosine learning rate, an
epoch column and periodic evaluations. Each run plants one kind of event (or
none) and returns where it put it, so a test can check the detectors against
the truth. Everything is drawn from one seeded RNG: a seed is a run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from trainwreck.curves.facts import Fact, RunFacts
from trainwreck.curves.table import TableBuilder
from trainwreck.model import MetricTable

KINDS = (
    "healthy",
    "nan",
    "spikes",
    "periodic",
    "plateau",
    "divergence",
    "overfitting",
    "oscillation",
    "clipping",
)


@dataclass
class Planted:
    """The truth about one generated run (steps are real steps, not point indices)."""

    kind: str
    log_every: int
    points: int
    nan_steps: dict[str, int] = field(default_factory=dict)
    spike_steps: list[int] = field(default_factory=list)
    period_steps: int | None = None
    epoch_matches: bool | None = None
    divergence_step: int | None = None
    overfit_step: int | None = None
    oscillation_step: int | None = None
    clip_mode: str | None = None  # "always" or "never"
    grad_lead_steps: list[int] = field(default_factory=list)  # loss spikes a grad spike led


@dataclass
class Run:
    columns: dict[str, np.ndarray]  # aligned with steps; NaN-free unless planted
    eval_steps: np.ndarray
    eval_loss: np.ndarray
    steps: np.ndarray
    planted: Planted
    max_grad_norm: float  # the clipping threshold the run's config states

    def facts(self) -> RunFacts:
        return RunFacts({"max_grad_norm": Fact(self.max_grad_norm, "generated config")})

    def table(self, source: str = "generated.jsonl") -> MetricTable:
        builder = TableBuilder(source)
        lines = np.arange(1, self.steps.size + 1, dtype=np.int64)
        for name, values in self.columns.items():
            builder.add_columns(name, self.steps, values.astype(np.float64), lines)
        builder.add_columns(
            "eval_loss", self.eval_steps, self.eval_loss, np.zeros_like(self.eval_steps)
        )
        return builder.build()

    def rows(self) -> list[dict[str, float | int]]:
        """One dict per logged step, as a script would write a JSONL line."""
        evals = dict(zip(self.eval_steps.tolist(), self.eval_loss.tolist(), strict=True))
        out: list[dict[str, float | int]] = []
        for i, step in enumerate(self.steps.tolist()):
            row: dict[str, float | int] = {"step": step}
            row.update({name: float(values[i]) for name, values in self.columns.items()})
            if step in evals:
                row["eval_loss"] = evals[step]
            out.append(row)
        return out


def _noise(rng: np.random.Generator, n: int, sigma: float, rho: float) -> np.ndarray:
    white = rng.normal(0.0, sigma * np.sqrt(1 - rho**2), n)
    out = np.empty(n)
    out[0] = rng.normal(0.0, sigma)
    for i in range(1, n):
        out[i] = rho * out[i - 1] + white[i]
    return out


def _base(rng: np.random.Generator, n: int, flat: bool) -> np.ndarray:
    """Log-loss of a healthy run: decay from start to floor (or flat), with noise."""
    floor = rng.uniform(0.3, 2.5)
    start = floor + rng.uniform(1.0, 8.0)
    tau = rng.uniform(0.05, 0.4) * n
    t = np.arange(n)
    if flat:
        return np.log(np.full(n, start)) + _noise(rng, n, rng.uniform(0.01, 0.06), 0.3)
    clean = floor + (start - floor) * np.exp(-t / tau)
    still_learning = rng.uniform(0.05, 0.3) * t / n  # the slow decline after the fast drop
    return (
        np.log(clean)
        - still_learning
        + _noise(rng, n, rng.uniform(0.01, 0.06), rng.uniform(0.0, 0.5))
    )


def _spike(log_loss: np.ndarray, at: int, magnitude: float, decay: float) -> None:
    tail = np.arange(log_loss.size - at)
    log_loss[at:] += np.log(magnitude) * np.exp(-tail / decay)


def generate(seed: int, kind: str) -> Run:
    """One run of `kind` (see KINDS) from `seed`."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(400, 3000))
    every = int(rng.choice([1, 5, 10]))
    steps = (np.arange(n, dtype=np.int64) + 1) * every
    planted = Planted(kind=kind, log_every=every, points=n)
    log_loss = _base(rng, n, flat=kind == "plateau")
    grad = np.exp(np.log(rng.uniform(0.5, 3.0)) - 0.3 * np.arange(n) / n + rng.normal(0, 0.15, n))
    warm = max(1, int(0.03 * n))
    peak_lr = 10 ** rng.uniform(-5, -3)
    t = np.arange(n)
    lr = np.where(
        t < warm,
        peak_lr * (t + 1) / warm,
        peak_lr * (0.55 + 0.45 * np.cos(np.pi * (t - warm) / (n - warm))),
    )
    epoch_points = int(rng.integers(n // 8, n // 3))
    swinging = np.zeros(n)  # training-batch swings only; the eval loss does not follow them
    if kind == "spikes":
        for at in _spaced(rng, n, int(rng.integers(1, 5))):
            _spike(log_loss, at, float(rng.choice([2.0, 4.0, 10.0])), rng.uniform(0.5, 4.0))
            if rng.random() < 0.5:
                grad[max(0, at - int(rng.integers(0, 3)))] *= rng.uniform(8, 30)
                planted.grad_lead_steps.append(int(steps[at]))
            planted.spike_steps.append(int(steps[at]))
    elif kind == "periodic":
        period = int(rng.integers(n // 12, n // 6))
        matches = bool(rng.random() < 0.7)
        epoch_points = period if matches else int(period * rng.choice([0.5, 1.5, 2.0]))
        for at in range(int(rng.integers(5, period)), n - 10, period):
            _spike(log_loss, at, float(rng.uniform(2.0, 5.0)), rng.uniform(0.5, 3.0))
            planted.spike_steps.append(int(steps[at]))
        planted.period_steps, planted.epoch_matches = period * every, matches
    elif kind == "divergence":
        at = int(rng.integers(int(0.4 * n), int(0.8 * n)))
        ramp = ((np.arange(n) - at).clip(0) / (n - at)) ** rng.uniform(1.0, 2.0)
        log_loss += np.log(rng.uniform(3.0, 20.0)) * ramp
        planted.divergence_step = int(steps[at])
    elif kind == "plateau" and rng.random() < 0.5:
        lr[:] = 0.0
    elif kind == "oscillation":  # a square wave from `at` on: up for `half` points, then down
        at = int(rng.integers(int(0.1 * n), int(0.5 * n)))
        half = int(rng.choice([1, 1, 2, 3, 5, 10]))
        sign = ((np.arange(n - at) // half) % 2) * 2 - 1
        swinging[at:] = 0.5 * np.log(rng.uniform(1.3, 2.0)) * sign
        planted.oscillation_step = int(steps[at])
    loss, grad_norm = np.exp(log_loss + swinging), grad
    if kind == "nan":
        _plant_nan(rng, n, steps, loss, grad_norm, planted)
    eval_every = max(1, n // 20)
    eval_idx = np.arange(eval_every - 1, n, eval_every)
    smooth = np.convolve(log_loss, np.ones(9) / 9, mode="same")
    eval_loss = np.exp(smooth[eval_idx]) * 1.05 * np.exp(rng.normal(0, 0.005, eval_idx.size))
    if kind == "nan":
        eval_loss[eval_idx >= np.searchsorted(steps, min(planted.nan_steps.values()))] = np.nan
    if kind == "overfitting":
        at = int(rng.integers(int(0.3 * eval_idx.size), int(0.7 * eval_idx.size)))
        rise = np.clip(np.arange(eval_idx.size) - at, 0, None) / (eval_idx.size - at)
        after = np.arange(eval_idx.size) > at
        growth = np.exp(np.log(rng.uniform(1.15, 1.6)) * rise[after])
        eval_loss[after] = eval_loss[at] * growth * np.exp(rng.normal(0, 0.005, growth.size))
        planted.overfit_step = int(steps[eval_idx[at]])
    epoch = steps / (epoch_points * every)
    columns = {"loss": loss, "grad_norm": grad_norm, "learning_rate": lr, "epoch": epoch}
    finite_grad = grad_norm[np.isfinite(grad_norm)]
    threshold = float(np.quantile(finite_grad, 0.6))  # clips some steps: neither extreme
    if kind == "clipping":
        planted.clip_mode = "always" if rng.random() < 0.5 else "never"
        low, high = float(finite_grad.min()), float(finite_grad.max())
        threshold = low * rng.uniform(0.5, 0.95) if planted.clip_mode == "always" else high * 1.5
    return Run(columns, steps[eval_idx], eval_loss, steps, planted, threshold)


def _spaced(rng: np.random.Generator, n: int, count: int) -> list[int]:
    """`count` positions in the middle of the run, at least 60 points apart."""
    chosen: list[int] = []
    while len(chosen) < count:
        at = int(rng.integers(int(0.15 * n), int(0.9 * n)))
        if all(abs(at - other) >= 60 for other in chosen):
            chosen.append(at)
    return sorted(chosen)


def _plant_nan(
    rng: np.random.Generator,
    n: int,
    steps: np.ndarray,
    loss: np.ndarray,
    grad: np.ndarray,
    planted: Planted,
) -> None:
    at = int(rng.integers(int(0.3 * n), int(0.9 * n)))
    lag = int(rng.integers(1, 6))
    first, second = (grad, loss) if rng.random() < 0.5 else (loss, grad)
    first[at:] = np.nan
    second[at + lag :] = rng.choice([np.nan, np.inf])
    names = ("grad_norm", "loss") if first is grad else ("loss", "grad_norm")
    planted.nan_steps = {names[0]: int(steps[at]), names[1]: int(steps[min(at + lag, n - 1)])}
