"""Real failure cases (tests/cases/<id>/case.yaml): load them and diagnose them.

Shared by `kb lint` (a pattern must rank first on its cases), the test suite
and the accuracy benchmark, so all three read a case the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from trainwreck.cases import load_memory
from trainwreck.errors import KnowledgeBaseError
from trainwreck.kb import KnowledgeBase
from trainwreck.model import Category, Diagnosis
from trainwreck.pipeline import diagnose

CASE_FILE = "case.yaml"
_NOT_EVIDENCE = {CASE_FILE, "expected.md", "expected.json", "expected.html"}


@dataclass(frozen=True)
class Case:
    path: Path
    source: str
    category: Category
    top_pattern: str
    symptoms: str | None
    inputs: tuple[Path, ...]
    holdout: bool


def load_case(directory: Path) -> Case:
    """Read a case folder's metadata; its evidence is every other file unless listed."""
    try:
        meta = yaml.safe_load((directory / CASE_FILE).read_text(encoding="utf-8"))
        listed = meta.get("inputs")
        inputs = (
            tuple(directory / name for name in listed)
            if listed
            else tuple(sorted(p for p in directory.iterdir() if p.name not in _NOT_EVIDENCE))
        )
        return Case(
            directory,
            meta["source"],
            meta["category"],
            meta["top_pattern"],
            meta.get("symptoms"),
            inputs,
            bool(meta.get("holdout", False)),
        )
    except (OSError, yaml.YAMLError, KeyError, TypeError, AttributeError) as exc:
        raise KnowledgeBaseError(f"{directory}: bad {CASE_FILE}: {exc}") from exc


def find_cases(root: Path) -> list[Case]:
    """Every case under `root`, sorted by folder name."""
    return [load_case(d) for d in sorted(root.iterdir()) if (d / CASE_FILE).is_file()]


def load_symptom_queries(directory: Path) -> list[tuple[str, str]]:
    """(query, expected page id) pairs from every tests/symptoms/*.yaml file."""
    queries: list[tuple[str, str]] = []
    for path in sorted(directory.glob("*.yaml")):
        try:
            entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
            queries += [(str(entry["query"]), str(entry["expected"])) for entry in entries]
        except (OSError, yaml.YAMLError, KeyError, TypeError) as exc:
            raise KnowledgeBaseError(f"{path}: bad symptoms file: {exc}") from exc
    return queries


def diagnose_case(case: Case, kb: KnowledgeBase | None = None) -> Diagnosis:
    """Run the real pipeline on the case's evidence and symptoms, as a new failure."""
    return diagnose_unseen(case.inputs, case.symptoms, (case.source, case.path.name), kb)


def diagnose_folder(
    directory: Path, kb: KnowledgeBase | None = None, extra: tuple[Path, ...] = ()
) -> Diagnosis:
    """Any case folder (the suite's or a first-sight batch's) diagnosed as a new failure.

    `extra` adds files the case leaves out of its inputs (a reproduction's script).
    """
    meta = yaml.safe_load((directory / CASE_FILE).read_text(encoding="utf-8"))
    listed = meta.get("inputs")
    inputs = (
        tuple(directory / name for name in listed)
        if listed
        else tuple(sorted(p for p in directory.iterdir() if p.name not in _NOT_EVIDENCE))
    )
    own = (meta["source"], directory.name)
    return diagnose_unseen((*inputs, *extra), meta.get("symptoms"), own, kb)


def diagnose_unseen(
    inputs: tuple[Path, ...],
    symptoms: str | None,
    own: tuple[str, ...],
    kb: KnowledgeBase | None,
) -> Diagnosis:
    """The pipeline with the case memory minus the case's own record.

    The case memory holds every case folder (its thread, or a reproduction under
    the folder's name); a case must be diagnosed as a new failure, not recognised.
    `own` holds its source and folder name.
    """

    memory = load_memory(exclude=own)
    return diagnose([str(p) for p in inputs], symptoms=symptoms, kb=kb, cases=memory)
