"""A code detector: one rule about training code, the failure it causes, and its finding id."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from trainwreck.analyzers.code.tree import Hit, Tree
from trainwreck.model import Category


@dataclass(frozen=True)
class Detector:
    """`find` returns every place the rule fires in one parsed piece of code.

    `explain` is the finding's summary, a format string over the first hit's
    values plus `where` (`file:line`) and `code` (that line's text).
    """

    name: str
    title: str
    category: Category
    explain: str
    find: Callable[[Tree], list[Hit]]

    @property
    def id(self) -> str:
        return f"code.{self.name}"
