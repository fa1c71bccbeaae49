"""A page about an install step does not lead a run that failed in another phase.

The extension-build page (parallel nvcc jobs exhausting host RAM) shares its words with any
host OOM ("Killed", "RAM"): before it declared its phase it led batch-18's validation OOM
reproduction on the symptom search alone. Its own message (nvcc naming the stage the kernel
killed, from NVlabs/curobo#109) still makes it the answer wherever it appears.
"""

from __future__ import annotations

from pathlib import Path

from gate_helpers import match, page

from trainwreck.curation.cases import diagnose_folder
from trainwreck.engine.gate import OTHER_PHASE_FACTOR, gate_factor
from trainwreck.model import RunContext
from trainwreck.pipeline import diagnose

ROOT = Path(__file__).parents[2]
PAGE = "extension-build-parallel-jobs-exhaust-ram"


def test_an_install_page_is_demoted_in_a_run_that_failed_while_training() -> None:
    build = page(PAGE)
    assert build.phases == ("install/import",)
    training = RunContext(frameworks={"cuda": "symptoms"}, phase="training")
    installing = RunContext(frameworks={"cuda": "symptoms"}, phase="install/import")
    factor, notes = gate_factor(build, match(build, 0.5), training)
    assert factor == OTHER_PHASE_FACTOR
    assert "training" in notes[0]
    assert gate_factor(build, match(build, 0.5), installing)[0] == 1.0
    assert gate_factor(build, match(build, 0.5), RunContext(frameworks={"cuda": "x"}))[0] == 1.0
    assert gate_factor(build, match(build, 0.9), training)[0] == 1.0  # its own message


def test_a_validation_oom_does_not_lead_with_the_build_page() -> None:
    case = ROOT / "benchmarks/first_sight/batch-18/t18A-pytorch-validation-oom-after-first-epoch"
    ids = [h.id for h in diagnose_folder(case).hypotheses]
    assert ids[0] != PAGE


def test_a_killed_nvcc_stage_names_the_build_page() -> None:
    log = ROOT / "tests/kb/fixtures/curobo-109-cudafe-killed.log"
    top = diagnose([str(log)]).hypotheses[0]
    assert top.id == PAGE
    assert top.confidence == "high"
