"""The run's peak learning rate against the cited priors for its training method and model size.

A learning rate ten times above (or below) what published recipes used for the
same method and model size explains a divergence (or a run that barely moves);
the finding cites the recipe. With no method or size in the evidence a full
fine-tune's rate is no guide (pretraining and small models run far higher), so
only a rate ten times above the highest rate of every cited recipe, whatever its
method, is judged (`learning_rate: 500`).
"""

from __future__ import annotations

from typing import cast

import numpy as np

from trainwreck.curves.facts import Fact, RunFacts
from trainwreck.curves.refs import arith, fmt, point
from trainwreck.kb.priors import Method, Prior, Question, fit, load_priors
from trainwreck.model import Arithmetic, Finding, MetricTable, SourceRef

FAR = 10.0  # times above or below the prior: "far outside", not a tuning preference
SIZE_SLACK = 2.0  # a prior for 7B also speaks for 3.5B-14B
_ADAPTERS = ("lora", "qlora")  # adapter rates hold on a 4-bit base too (the fit prefers the same)


def _covers(row: Prior, size: float) -> bool:
    sizes = row.sizes()
    if sizes is None:
        return True
    low, high = sizes
    return low / SIZE_SLACK <= size <= high * SIZE_SLACK


def closest_prior(method: str, size: float) -> Prior | None:
    """The learning-rate row for this method (or adapter kin) whose setting fits best."""
    question = Question(("learning_rate",), cast(Method, method), size, None)
    kin = {method, *_ADAPTERS} if method in _ADAPTERS else {method}
    rows = [
        row
        for row in load_priors()
        if row.knob == "learning_rate" and row.method in kin and _covers(row, size)
    ]
    return min(rows, key=lambda row: (-fit(row, question), row.id), default=None)


def _peak(table: MetricTable | None, facts: RunFacts) -> tuple[float, str, SourceRef | None] | None:
    """The highest logged learning rate, else the configured one."""
    series = table.series.get("learning_rate") if table is not None else None
    if table is not None and series is not None:
        finite = np.flatnonzero(np.isfinite(series.values) & (series.values > 0))
        if finite.size:
            top = int(finite[np.argmax(series.values[finite])])
            ref = point(table, series, top)
            return float(series.values[top]), f"{table.source}:learning_rate (highest logged)", ref
    configured = facts.get("learning_rate")
    if configured is not None and configured.value > 0:
        return configured.value, configured.source, None
    return None


def highest_prior() -> Prior:
    """The learning-rate row with the highest rate, over every method and size."""
    rows = [row for row in load_priors() if row.knob == "learning_rate"]
    return max(rows, key=lambda row: (float(row.value), row.id))


def lr_against_priors(table: MetricTable | None, facts: RunFacts) -> Finding | None:
    """The run's peak rate against its recipe; without a method or size, against them all."""
    size, peak = facts.get("model_size_b"), _peak(table, facts)
    if peak is None:
        return None
    if facts.method is None or size is None:
        return _above_every_recipe(*peak)
    method, method_source = facts.method
    prior = closest_prior(method, size.value)
    if prior is None:
        return None
    value, value_source, ref = peak
    ratio = value / float(prior.value)
    if 1 / FAR < ratio < FAR:
        return None
    return _finding(value, value_source, ref, ratio, prior, (method, method_source), size)


def _above_every_recipe(value: float, value_source: str, ref: SourceRef | None) -> Finding | None:
    prior = highest_prior()
    ratio = value / float(prior.value)
    if ratio < FAR:
        return None
    summary = (
        f"peak learning rate {fmt(value)} is {ratio:.0f}x above {prior.value}, the highest rate "
        f"of any cited recipe (prior {prior.id}); the evidence names no training method or "
        "model size, and no recipe of any method comes within 10x of it"
    )
    lines = (
        arith("peak learning rate", "highest learning rate of the run", value, value_source),
        arith("highest prior", f"learning rate of {prior.id}", float(prior.value), prior.source),
        arith("ratio", "peak / highest prior", round(ratio, 3), "computed", "x"),
    )
    return Finding(
        id="curves.lr_above_prior",
        title=f"Learning rate {fmt(value)} is far above every cited recipe",
        category="divergence",
        summary=summary,
        evidence=(ref,) if ref is not None else (),
        values={
            "learning_rate": value,
            "prior": prior.value,
            "prior_id": prior.id,
            "prior_said": "the highest rate of any cited recipe, whatever its method",
        },
        arithmetic=Arithmetic(title="Learning rate against the prior", lines=lines, result=summary),
    )


def _finding(
    value: float,
    value_source: str,
    ref: SourceRef | None,
    ratio: float,
    prior: Prior,
    method: tuple[str, str],
    size: Fact,
) -> Finding:
    above = ratio >= FAR
    times = f"{ratio:.0f}x above" if above else f"{1 / ratio:.0f}x below"
    recipe = f"{prior.method} on {prior.model_size}" if prior.model_size else prior.method
    summary = (
        f"peak learning rate {fmt(value)} is {times} the {prior.value} of the cited {recipe} "
        f"recipe (prior {prior.id}); this run: {method[0]} on a "
        f"{size.value:.3g}B-parameter model"
    )
    lines = (
        arith("peak learning rate", "highest learning rate of the run", value, value_source),
        arith("training method", "from the evidence", method[0], method[1]),
        arith("model size", "parameters, billions", size.value, size.source, "B"),
        arith("prior", f"learning rate of {prior.id}", float(prior.value), prior.source),
        arith("ratio", "peak / prior", round(ratio, 3), "computed", "x"),
    )
    return Finding(
        id="curves.lr_above_prior" if above else "curves.lr_below_prior",
        title="Learning rate far above the cited recipes"
        if above
        else "Learning rate far below the cited recipes",
        category="divergence" if above else "config_error",
        summary=summary,
        evidence=(ref,) if ref is not None else (),
        values={
            "learning_rate": value,
            "prior": prior.value,
            "prior_id": prior.id,
            "prior_said": f"the rate of the cited {recipe} recipe",
            # the rate a fix moves to: this method's and size's recipe (only when above)
            "recipe_learning_rate": float(prior.value) if above else None,
        },
        arithmetic=Arithmetic(title="Learning rate against the prior", lines=lines, result=summary),
    )
