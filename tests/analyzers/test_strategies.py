"""The load_best_model_at_end strategy fix makes the two strategies agree (issue 18).

Observed: `eval_strategy: no → steps` when the log printed `Evaluation strategy: STEPS`
and `Save strategy: EPOCH`; the changed settings still raised. The message here is the
one TrainingArguments itself raises on this machine, and the fix is applied to the
same arguments and constructed again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck import diagnose
from trainwreck.analyzers import strategies
from trainwreck.analyzers.strategies import NEAR_LINES
from trainwreck.evidence.collect import collect
from trainwreck.model import Change

CASES = Path(__file__).parents[1] / "cases"


def _arguments(tmp_path: Path, **settings: object) -> object:
    from transformers import TrainingArguments

    return TrainingArguments(output_dir=str(tmp_path), load_best_model_at_end=True, **settings)


def _fix(log: Path) -> Change:
    top = diagnose([str(log)]).hypotheses[0]
    assert top.id == "load-best-model-strategy-mismatch"
    return top.fixes[0].changes[0]


@pytest.mark.parametrize(
    ("evaluate", "save"), [("steps", "epoch"), ("no", "epoch"), ("epoch", "steps")]
)
def test_the_fix_makes_trainingarguments_accept_the_settings(
    tmp_path: Path, evaluate: str, save: str
) -> None:
    settings = {"eval_strategy": evaluate, "save_strategy": save}
    with pytest.raises(ValueError, match="strategy to match") as raised:
        _arguments(tmp_path, **settings)
    log = tmp_path / "train.log"
    log.write_text(f"ValueError: {raised.value}\n", encoding="utf-8")
    change = _fix(log)
    assert change.path.endswith("eval_strategy") and change.before == evaluate
    settings["eval_strategy"] = str(change.after)
    _arguments(tmp_path, **settings)  # constructs: the strategies agree


def test_the_one_line_message_of_older_transformers() -> None:
    change = _fix(CASES / "deepke-load-best-model-394" / "train.log")
    assert (change.before, change.after) == ("no", "epoch")


def _strategies(tmp_path: Path, *lines: str) -> list[dict[str, object]]:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [dict(f.values) for f in strategies.analyze(collect([str(log)]))]


@pytest.mark.parametrize(
    ("after", "found"), [(NEAR_LINES - 2, True), (NEAR_LINES - 1, True), (NEAR_LINES, False)]
)
def test_the_save_line_follows_within_the_same_message(
    tmp_path: Path, after: int, found: bool
) -> None:
    """Lines between the two strategies belong to another message after NEAR_LINES."""
    between = [f"- another setting {n}" for n in range(after - 1)]
    values = _strategies(
        tmp_path,
        "- Evaluation strategy: IntervalStrategy.STEPS",
        *between,
        "- Save strategy: SaveStrategy.EPOCH",
    )
    assert values == ([{"eval_strategy": "steps", "save_strategy": "epoch"}] if found else [])


def test_strategies_that_agree_are_no_finding(tmp_path: Path) -> None:
    assert _strategies(tmp_path, "Evaluation strategy: epoch - Save strategy: epoch") == []
