"""Charts the HTML report shows beside the Diagnosis, drawn by the caller from the evidence.

The Diagnosis holds no curves (they are NumPy arrays, kept out of the JSON
contract), so whoever holds the evidence draws them and hands them in here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One chart: a complete `<svg>` element made by trusted code, its title and caption."""

    title: str
    svg: str
    caption: str


@dataclass(frozen=True)
class Figures:
    """The charts of one report, or the one line saying how to get them when none could be drawn."""

    items: tuple[Figure, ...] = ()
    missing: str | None = None
