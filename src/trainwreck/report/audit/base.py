"""What every audit rule shares: the report it reads and the finding it returns."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property

from trainwreck.fixes.targets import target
from trainwreck.model import Arithmetic, Change, Diagnosis, Hypothesis, Scalar


@dataclass(frozen=True)
class AuditFinding:
    """One broken rule: which rule, where (a Diagnosis field or `markdown:LINE`), and why."""

    rule: str
    where: str
    why: str

    def __str__(self) -> str:
        return f"{self.rule} at {self.where}: {self.why}"


@dataclass(frozen=True)
class FixChange:
    """A change of the top hypothesis's fixes, with the field path that names it."""

    where: str
    fix: int
    change: Change

    @property
    def leaf(self) -> str:
        """The setting's own name: `per_device_train_batch_size`, `max_model_len`."""
        return target(self.change.path).leaf.lower()


@dataclass(frozen=True)
class Audited:
    """A report as the auditor reads it: its Diagnosis (None for any answer's text) and text."""

    diagnosis: Diagnosis | None
    markdown: str

    @property
    def top(self) -> Hypothesis | None:
        d = self.diagnosis
        return d.hypotheses[0] if d is not None and d.hypotheses else None

    def changes(self) -> Iterator[FixChange]:
        """Every change of every fix of the top hypothesis, in report order."""
        top = self.top
        for number, fix in enumerate(top.fixes if top else ()):
            for index, change in enumerate(fix.changes):
                where = f"hypotheses[0].fixes[{number}].changes[{index}] ({change.path})"
                yield FixChange(where, number, change)

    def tables(self) -> tuple[Arithmetic, ...]:
        """The report's arithmetic and every finding's, each table once."""
        d = self.diagnosis
        if d is None:
            return ()
        found = [*d.arithmetic, *(f.arithmetic for f in d.findings if f.arithmetic)]
        return tuple({(table.title, table.result): table for table in found}.values())

    @cached_property
    def stated_values(self) -> dict[str, Scalar]:
        """Values the report states it read from the evidence: the top hypothesis's and
        every finding's `values`, lowercased keys; the top hypothesis wins a clash."""
        d = self.diagnosis
        found: dict[str, Scalar] = {}
        for finding in d.findings if d else ():
            found.update({key.lower(): value for key, value in finding.values.items()})
        if self.top is not None:
            found.update({key.lower(): value for key, value in self.top.values.items()})
        return {key: value for key, value in found.items() if value is not None}


Rule = Callable[[Audited], list[AuditFinding]]
