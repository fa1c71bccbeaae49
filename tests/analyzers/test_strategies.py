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
