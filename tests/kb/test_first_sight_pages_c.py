"""Pages written for mechanisms first-sight batch-2 missed: each leads on the real case it was
written for, from the evidence the case hands in (logs, the user's words, the repro script).

The cases are benchmarks/first_sight/batch-2 folders (public threads and CPU reproductions,
development data since batch-2 was judged).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from trainwreck import diagnose
from trainwreck.curation.cases import diagnose_unseen
from trainwreck.model import Diagnosis

FIRST_SIGHT = Path(__file__).parents[2] / "benchmarks" / "first_sight"
BATCH = FIRST_SIGHT / "batch-2"


def _case(name: str, *extra: str, batch: Path = BATCH) -> Diagnosis:
    folder = batch / name
    meta = yaml.safe_load((folder / "case.yaml").read_text(encoding="utf-8"))
    symptoms = str(meta.get("symptoms") or "").strip() or None
    inputs = [*meta["inputs"], *extra]
    # the case's own record left out of the case memory: its description would find itself
    own = (str(meta["source"]), folder.name)
    return diagnose_unseen(tuple(folder / item for item in inputs), symptoms, own, None)


def _top(diagnosis: Diagnosis) -> str:
    return diagnosis.hypotheses[0].id


@pytest.mark.parametrize(
    ("case", "page"),
    [
        ("pytorch-cpu-fp16-matmul-no-avx512fp16-slow-146508", "cpu-half-precision-matmul-slow"),
        (
            "vmamba-selective-scan-kernel-missing-torch-fallback-slow-340",
            "optional-cuda-kernel-missing-slow-fallback",
        ),
        # The repro scripts are among the case's inputs: the code detectors carry these.
        ("repro-pytorch-standardize-constant-column-nan", "standardize-zero-std-feature"),
        ("repro-pytorch-label-column-broadcast-accuracy", "metric-label-column-broadcast"),
    ],
)
def test_page_leads_on_the_case_it_was_written_for(case: str, page: str) -> None:
    assert _top(_case(case)) == page


def test_the_loss_kwargs_page_leads_from_the_number_or_from_the_users_words() -> None:
    # Unsloth Gemma-4: no accumulation setting in the log, but a first loss of 186 is 15x ln V.
    assert _top(_case("unsloth-gemma4-ga-high-loss-4982")) == (
        "trainer-loss-kwargs-model-skips-normalisation"
    )
    # LLaMA-Factory LLaVA (batch-1): a table of losses that grow with the accumulation steps.
    llava = _case("llamafactory-llava-grad-accum-loss-scaled-7443", batch=FIRST_SIGHT / "batch-1")
    assert _top(llava) == "trainer-loss-kwargs-model-skips-normalisation"


def test_the_stale_optimizer_page_needs_the_code() -> None:
    # The case hands in only its log: a loss that wanders says nothing about why. With the
    # script it ran, the detector names the rebinding line and the page leads.
    case = "repro-pytorch-optimizer-stale-params-after-reload"
    assert _top(_case(case)) != "optimizer-holds-replaced-model-params"
    assert _top(_case(case, "repro.py")) == "optimizer-holds-replaced-model-params"


def test_half_precision_on_a_named_gpu_is_not_matched_as_a_cpu_run(tmp_path: Path) -> None:
    # Half precision and the CPU on one line, but the run names its GPU: at most the user's
    # words ("fp16 training is slow") bring the page in, never a line of the log.
    log = tmp_path / "train.log"
    log.write_text("fp16 on 8 A100 GPUs with cpu offload\nstep 10 loss 2.31\n", encoding="utf-8")
    hypotheses = diagnose([str(log)], symptoms="fp16 training is slow").hypotheses
    page = next(h for h in hypotheses if h.id == "cpu-half-precision-matmul-slow")
    assert not page.evidence
    # and "slow" alone, naming no half precision, does not retrieve it at all
    plain = diagnose([str(log)], symptoms="training is slow").hypotheses
    assert "cpu-half-precision-matmul-slow" not in {h.id for h in plain}
