"""The evaluation and save strategies a load_best_model_at_end error printed, as settings.

TrainingArguments prints them as enum members on lines of their own in transformers
5 (`- Evaluation strategy: IntervalStrategy.STEPS`, `- Save strategy: SaveStrategy.EPOCH`)
and as plain words on one line before (`Evaluation strategy: no - Save strategy: epoch`).
A fix sets a strategy to the other's value, which must be the lower-case word
TrainingArguments accepts, so the names are read here rather than by a page regex.
"""

from __future__ import annotations

import re

from trainwreck.model import Evidence, Finding, SourceRef

FINDING_IDS: tuple[str, ...] = ("trainer.strategies",)

_EVALUATION = re.compile(r"Evaluation strategy: (?:\w+\.)?(?P<value>\w+)")
_SAVE = re.compile(r"Save strategy: (?:\w+\.)?(?P<value>\w+)")
KEEP: tuple[str, ...] = (r"Evaluation strategy: ", r"Save strategy: ")
NEAR_LINES = 3  # the save line follows the evaluation line within the same message


def analyze(evidence: Evidence) -> list[Finding]:
    """A `trainer.strategies` finding with both strategies, lower-case, when they differ."""
    lines = evidence.lines
    for index, line in enumerate(lines):
        evaluation = _EVALUATION.search(line.text)
        if evaluation is None:
            continue
        near = [line, *lines[index + 1 : index + NEAR_LINES]]
        save = next((m for item in near if (m := _SAVE.search(item.text))), None)
        if save is None:
            continue
        evaluate, store = evaluation["value"].lower(), save["value"].lower()
        if evaluate == store:
            continue
        return [
            Finding(
                id="trainer.strategies",
                title="The evaluation and save strategies differ",
                category="config_error",
                summary=f"evaluation strategy {evaluate!r}, save strategy {store!r}",
                evidence=(SourceRef(source=line.source, line=line.line, text=line.text),),
                values={"eval_strategy": evaluate, "save_strategy": store},
            )
        ]
    return []
