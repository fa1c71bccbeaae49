"""Real batch-1 cases the code detectors change: the top answer with the code and without it.

Each case is diagnosed as the benchmark does (its logs and symptoms, its own record left
out of the case memory), once without
the script the user had and once with it; the detector's finding must turn a wrong
or generic top answer into the page that names the confirmed cause.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from code_helpers import BATCH_1, ROOT

from trainwreck.analyzers.code import DETECTORS
from trainwreck.curation.cases import diagnose_unseen
from trainwreck.kb import load
from trainwreck.model import Diagnosis


def _diagnose(case: str, *, with_code: bool, extra_symptoms: str = "") -> Diagnosis:
    folder = BATCH_1 / case
    meta = yaml.safe_load((folder / "case.yaml").read_text(encoding="utf-8"))
    inputs = [folder / name for name in meta["inputs"] if not name.endswith(".py")]
    code = sorted(folder.glob("*.py")) if with_code else []
    symptoms = str(meta["symptoms"]).strip() + extra_symptoms
    # the case's own record left out of the case memory: its description would find itself
    return diagnose_unseen((*inputs, *code), symptoms, (str(meta["source"]), folder.name), None)


def _top(diagnosis: Diagnosis) -> str:
    return diagnosis.hypotheses[0].id


@pytest.mark.parametrize(
    ("case", "before", "after", "finding"),
    [
        # the missing-zero_grad reproduction left this list: its description alone now leads
        # to the page (the memory's descriptions of the page's other threads); the detector
        # keeps its wrong-to-right case in test_wrong_to_right
        (
            "repro-torch-manual-bce-log-zero-nan",
            "fp16-overflow-bf16-pretrained-model",
            "custom-loss-log-of-zero",
            "code.log_without_eps",
        ),
    ],
)
def test_the_script_turns_the_top_answer_into_the_confirmed_cause(
    case: str, before: str, after: str, finding: str
) -> None:
    assert _top(_diagnose(case, with_code=False)) == before
    diagnosis = _diagnose(case, with_code=True)
    assert _top(diagnosis) == after
    cited = {ref.source for ref in diagnosis.hypotheses[0].evidence}
    assert any(source.endswith("repro.py") for source in cited), cited
    assert finding in {f.id for f in diagnosis.findings}


def test_a_rank_0_checkpoint_save_in_the_description_names_the_collective_mismatch() -> None:
    # lightning-save-checkpoint-rank0-barrier-hang-381: the log shows only the watchdog; the
    # confirmed cause is a save_checkpoint inside `if trainer.is_global_zero:` (our words).
    pasted = (
        "\n```python\ntrainer.fit(model, datamodule=datamodule)\n"
        "if trainer.is_global_zero:\n    trainer.save_checkpoint(checkpoint_path)\n```\n"
    )
    case = "lightning-save-checkpoint-rank0-barrier-hang-381"
    before = _diagnose(case, with_code=False)
    diagnosis = _diagnose(case, with_code=False, extra_symptoms=pasted)
    assert _top(diagnosis) == "collective-in-rank-zero-branch"
    assert diagnosis.hypotheses[0].score > before.hypotheses[0].score  # the code adds weight
    assert "symptoms" in {ref.source for ref in diagnosis.hypotheses[0].evidence}


@pytest.mark.parametrize(
    ("case", "finding", "line"),
    [
        ("repro-torch-float64-numpy-input", "code.numpy_float64_input", 12),
    ],
)
def test_findings_still_waiting_for_a_page_of_their_own(case: str, finding: str, line: int) -> None:
    """The detector names the cause; no page yet turns it into the top answer."""
    found = {f.id: f for f in _diagnose(case, with_code=True).findings}
    assert found[finding].values["line"] == line


def test_every_code_finding_a_page_uses_is_a_detector() -> None:
    used = {
        signature.finding
        for pattern in load().patterns
        for signature in pattern.signatures
        if signature.finding and signature.finding.startswith("code.")
    }
    assert used <= {detector.id for detector in DETECTORS}
    assert len(used) >= 9


def test_every_detector_is_listed_for_page_authors() -> None:
    guide = (ROOT / "docs" / "kb-patterns.md").read_text(encoding="utf-8")
    missing = [d.id for d in DETECTORS if f"`{d.id}`" not in guide]
    assert not missing, missing


def test_detector_ids_are_unique_and_named_for_their_package() -> None:
    ids = [detector.id for detector in DETECTORS]
    assert len(ids) == len(set(ids))
    assert all(Path(i.replace(".", "/")).parts[0] == "code" for i in ids)
