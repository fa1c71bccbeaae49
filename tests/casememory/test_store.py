"""The bundled store: built from its sources, valid, and never holding an unmeasured batch."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

from trainwreck.cases.match import bundled_records
from trainwreck.cases.records import BUNDLED, dump_records
from trainwreck.kb import load
from trainwreck.model import CATEGORIES

ROOT = Path(__file__).resolve().parents[2]
# Each failure class has at least this many records today (the aim is 40).
MIN_PER_CLASS = 30


def build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_cases", ROOT / "scripts" / "build_cases.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_cases"] = module
    spec.loader.exec_module(module)
    return module


def test_bundled_file_is_what_the_build_script_makes_from_the_sources() -> None:
    script = build_script()
    expected = "".join(dump_records(script.build()))
    assert BUNDLED.read_text(encoding="utf-8") == expected, "run python scripts/build_cases.py"


def test_one_record_per_thread_and_id() -> None:
    script = build_script()
    records = bundled_records()
    assert len({script.thread_key(r.source) for r in records}) == len(records)
    assert len({r.id for r in records}) == len(records)


def test_every_page_named_exists_and_every_class_has_records() -> None:
    pages = {p.id for p in load().patterns}
    records = bundled_records()
    assert {r.page for r in records if r.page} <= pages
    counts = Counter(r.category for r in records)
    assert all(counts[c] >= MIN_PER_CLASS for c in CATEGORIES), counts


def test_only_measured_first_sight_batches_are_in_the_store() -> None:
    measured = build_script().MEASURED_BATCHES
    batches = {r.collected.split()[-1] for r in bundled_records() if "first-sight" in r.collected}
    assert batches <= set(measured)
    for batch in measured:
        assert f"| {batch} |" in (ROOT / "benchmarks" / "first_sight.md").read_text()
