"""Pages about one device (Apple MPS, TPU) stay out of runs that show another (issue 15).

Observed on first-sight batch-6 (unsloth#2504, judged family at 559cae3): a 4-bit 30B model
that does not fit a 24 GB RTX 4090 ("CUDA driver error: out of memory") was answered with
the Apple-MPS OOM page, on the shared words alone.
"""

from __future__ import annotations

from pathlib import Path

from trainwreck.curation.cases import diagnose_folder
from trainwreck.engine.gate import fits, gate_factor, other_hardware
from trainwreck.kb import load
from trainwreck.kb.schema import Pattern
from trainwreck.model import RunContext

BATCH_6 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-6"


def _page(page_id: str) -> Pattern:
    page = load().get(page_id)
    assert isinstance(page, Pattern)
    return page


def test_a_device_page_fits_its_device_or_a_run_that_names_none() -> None:
    mps = _page("mps-backend-out-of-memory")
    assert other_hardware(mps, RunContext(hardware="cuda"))
    assert not other_hardware(mps, RunContext(hardware="mps"))
    assert not other_hardware(mps, RunContext())  # a run that names no device: held to nothing
    assert not fits(mps, RunContext(hardware="cuda", frameworks={"pytorch": "log"}))
    factor, notes = gate_factor(mps, None, RunContext(hardware="cuda"))
    assert factor < 1 and "the run shows cuda" in notes[0]


def test_a_page_for_no_device_fits_any() -> None:
    capacity = _page("cuda-oom-capacity")
    assert not capacity.hardware and not other_hardware(capacity, RunContext(hardware="tpu"))


def test_the_4090_oom_is_answered_with_capacity_not_the_mps_page() -> None:
    report = diagnose_folder(BATCH_6 / "unsloth-qwen3-30b-a3b-4bit-exceeds-24gb-oom-2504")
    ids = [h.id for h in report.hypotheses]
    assert ids[0] == "cuda-oom-capacity" and "mps-backend-out-of-memory" not in ids
