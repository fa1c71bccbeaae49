"""Ranked hypotheses for a run in progress, demoted by what the user already tried.

The engine ranks hypotheses from the status text and any logs. An experiment
that changed a key one hypothesis's fix would change, and reports that the
failure persisted ("lowered lr, still NaN"), is evidence against that
hypothesis: its score is halved and the reason recorded. The rest keep the
engine's order (its ties already settled by level, cost and the user's words); a
demoted one moves down to its new score. Re-ordering the whole list here (by cost
and name alone) had changed the engine's order of 34 of 60 first-sight
descriptions with no experiment at all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from trainwreck.model import Diagnosis, Hypothesis

RULED_OUT_FACTOR = 0.5
_PERSISTED = re.compile(
    r"\b(still|same|again|persist\w*|did(?:n't| not) (?:help|fix|change)|no (?:change|effect|"
    r"difference)|keeps?|unchanged|as before)\b",
    re.IGNORECASE,
)
# Short names people use for keys that fixes change.
_ALIASES = {
    "lr": "learning_rate",
    "learning rate": "learning_rate",
    "batch": "batch_size",
    "grad clip": "max_grad_norm",
    "clipping": "max_grad_norm",
    "checkpointing": "gradient_checkpointing",
    "eps": "adam_epsilon",
    "epsilon": "adam_epsilon",
    "warmup": "warmup",
}


@dataclass(frozen=True)
class Ranked:
    """A hypothesis with its adjusted score and the experiments that count against it."""

    hypothesis: Hypothesis
    score: float
    ruled_out_by: tuple[str, ...]


def _keys(hypothesis: Hypothesis) -> set[str]:
    """The leaf names of every key the hypothesis's fixes change (`learning_rate`, ...)."""
    return {
        change.path.rsplit(".", 1)[-1].lower() for fix in hypothesis.fixes for change in fix.changes
    }


def _mentions(word: str, text: str) -> bool:
    """`word` in `text` as a whole word; `_` joins words, so `warmup` is in `warmup_ratio`."""
    return re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", text) is not None


def _touched(experiment: str, keys: set[str]) -> bool:
    text = experiment.lower()
    named = any(_mentions(key, text) or _mentions(key.replace("_", " "), text) for key in keys)
    aliased = {target for alias, target in _ALIASES.items() if _mentions(alias, text)}
    return named or any(target in key for target in aliased for key in keys)


def rank(diagnosis: Diagnosis, experiments: Sequence[str]) -> list[Ranked]:
    """The diagnosis's hypotheses re-ranked by the experiments already run."""
    ranked = []
    for hypothesis in diagnosis.hypotheses:
        keys = _keys(hypothesis)
        against = tuple(e for e in experiments if _PERSISTED.search(e) and _touched(e, keys))
        factor = RULED_OUT_FACTOR if against else 1.0
        ranked.append(Ranked(hypothesis, round(hypothesis.score * factor, 4), against))
    return sorted(ranked, key=lambda r: -r.score)  # stable: the engine's order among equals
