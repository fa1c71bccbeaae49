"""Alternatives and prevention only where the evidence points (issue 18, "Noise")."""

from __future__ import annotations

import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_case, load_case
from trainwreck.engine.gate import SPECIFIC_WEIGHT
from trainwreck.engine.match import Hit, Match
from trainwreck.engine.rank import Candidate
from trainwreck.engine.shown import CONTEXT_WEIGHT, shown
from trainwreck.kb import load
from trainwreck.kb.schema import Pattern, Signature
from trainwreck.model import Diagnosis, RunContext, SourceRef
from trainwreck.pipeline import diagnose

EXAMPLE = Path(__file__).parents[2] / "examples" / "llama-lora-oom"
CASES = Path(__file__).parents[1] / "cases"
REF = SourceRef(source="train.log", line=1, text="x")
# The example's only line for these pages is `--fp16` in its launch command.
FP16_ONLY_PAGES = {"clip-grad-norm-nonfinite-error", "lr-scheduler-step-before-optimizer-warning"}


@cache
def example() -> Diagnosis:
    return diagnose([str(EXAMPLE)])


def _candidate(page_id: str, weight: float) -> Candidate:
    page = load().get(page_id)
    assert isinstance(page, Pattern)
    match = Match(page, (Hit(Signature(regex="x", weight=weight), REF),))
    return Candidate(page, match, (), weight, weight)


def _words_only(page_id: str) -> Candidate:
    """A page retrieved by the user's words: no log hit at all."""
    page = load().get(page_id)
    assert isinstance(page, Pattern)
    return Candidate(page, None, (), 0.27, 0.27)


def test_the_oom_example_has_no_fp16_only_alternatives() -> None:
    ids = {h.id for h in example().hypotheses}
    assert "cuda-oom-capacity" in ids
    assert not ids & FP16_ONLY_PAGES


@pytest.mark.parametrize(
    ("weight", "kept"), [(CONTEXT_WEIGHT - 0.05, False), (CONTEXT_WEIGHT, False), (0.3, True)]
)
def test_an_off_class_alternative_needs_a_hit_above_context_weight(
    weight: float, kept: bool
) -> None:
    top = _candidate("cuda-oom-capacity", 0.9)
    other = _candidate("clip-grad-norm-nonfinite-error", weight)  # nan_inf
    assert (other in shown([top, other], RunContext(), words_only=False)) is kept


@pytest.mark.parametrize(
    ("weight", "kept"), [(CONTEXT_WEIGHT - 0.05, False), (CONTEXT_WEIGHT, False), (0.3, True)]
)
def test_a_zero3_save_oom_is_no_alternative_to_an_nccl_timeout_without_its_own_hit(
    weight: float, kept: bool
) -> None:
    """Observed: a ZeRO-3 save OOM beside an NCCL timeout. The run shows DeepSpeed, so the
    page's framework is present: only its lack of a log hit of its own keeps it out."""
    top = _candidate("nccl-watchdog-timeout", 0.9)  # hang
    other = _candidate("deepspeed-zero3-gather-on-save-oom", weight)  # oom
    run = RunContext(frameworks={"pytorch": "log", "nccl": "log", "deepspeed": "log"})
    assert (other in shown([top, other], run, words_only=False)) is kept


def test_with_the_users_words_alone_an_off_class_guess_stays_an_alternative() -> None:
    # "gpu training script says torch was not built with cuda support": the top guess is a
    # config page, the cpu-only-build page (dependency_conflict) must stay beside it
    top, other = (
        _words_only(page) for page in ("accelerate-stale-default-config", "torch-cpu-only-build")
    )
    run = RunContext(frameworks={"pytorch": "symptoms", "cuda": "symptoms"})
    assert other not in shown([top, other], run, words_only=False)
    assert other in shown([top, other], run, words_only=True)


def test_a_same_class_alternative_needs_no_strong_hit() -> None:
    top = _candidate("cuda-oom-capacity", 0.9)
    other = _candidate("cuda-oom-other-process", 0.1)
    assert other in shown([top, other], RunContext(), words_only=False)


def test_a_page_for_a_framework_the_run_never_shows_is_no_alternative() -> None:
    # A DeepSpeed JIT-build hang: the JAX barrier page was its fourth hypothesis.
    diagnosis = diagnose_case(load_case(CASES / "deepspeedexamples-torch-extensions-lock-302"))
    assert diagnosis.hypotheses[0].id == "torch-extensions-stale-lock"
    assert "jax" not in diagnosis.context.frameworks
    assert "jax-distributed-barrier-timeout" not in {h.id for h in diagnosis.hypotheses}


@pytest.mark.parametrize(
    ("weight", "frameworks", "kept"),
    [
        (SPECIFIC_WEIGHT - 0.1, {"pytorch": "log"}, False),
        (SPECIFIC_WEIGHT, {"pytorch": "log"}, True),  # its own message names JAX
        (SPECIFIC_WEIGHT - 0.1, {"jax": "log"}, True),
    ],
)
def test_an_alternative_for_an_absent_framework_needs_its_own_message(
    weight: float, frameworks: dict[str, str], kept: bool
) -> None:
    top = _candidate("nccl-watchdog-timeout", 0.9)
    other = _candidate("jax-distributed-barrier-timeout", weight)  # requires jax
    run = RunContext(frameworks=frameworks)
    assert (other in shown([top, other], run, words_only=False)) is kept


def test_a_page_for_an_absent_framework_is_no_top_answer_either() -> None:
    top = _candidate("jax-distributed-barrier-timeout", SPECIFIC_WEIGHT - 0.1)  # requires jax
    other = _candidate("nccl-watchdog-timeout", 0.5)
    torch_run = RunContext(frameworks={"pytorch": "log", "nccl": "log"})
    assert shown([top, other], torch_run, words_only=False) == [other]
    # alone, the demoted page is still the best guess
    assert shown([top], torch_run, words_only=False) == [top]


def test_a_look_alike_thread_about_an_absent_framework_is_no_alternative() -> None:
    """A frozen-parameters repro (torch only) got huggingface/peft#137 beside its answer."""
    diagnosis = diagnose_case(load_case(CASES / "repro-autograd-frozen-no-grad-fn"))
    assert "peft" not in diagnosis.context.frameworks
    assert not [h.id for h in diagnosis.hypotheses if "peft" in h.id], diagnosis.hypotheses


def test_one_guard_template_is_shown_once() -> None:
    """The example's page has two guards on one template (thresholds 0.9 and 0.95)."""
    codes = [p.code for p in example().prevention if p.code]
    defined = [name for code in codes for name in re.findall(r"^def (\w+)", code, re.M)]
    assert codes and len(defined) == len(set(defined)), defined


def test_an_ungrounded_crash_gets_no_guard_of_an_unrelated_page(tmp_path: Path) -> None:
    """A KeyError in the user's own script used to get the `retain_graph` guards."""
    script = tmp_path / "train.py"
    script.write_text('import json\nconfig = json.loads(\'{"layers": 2}\')\nconfig["hidden"]\n')
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert "KeyError: 'hidden'" in run.stderr
    log = tmp_path / "crash.log"
    log.write_text(run.stderr)
    diagnosis = diagnose([str(log)])
    assert not diagnosis.hypotheses[0].grounded
    assert diagnosis.prevention == ()


def test_an_alternative_whose_title_names_a_framework_the_run_lacks_is_not_shown() -> None:
    """A store record whose evidence shows only HF datasets (load_dataset("timit_asr")) drew
    the DataLoader-workers page, whose title names PyTorch, as its fourth answer: the report
    auditor's rule (g) holds titles to the run's context, and the alternatives now are too."""
    top = _words_only("classifier-head-newly-initialized")
    other = _words_only("dataloader-workers-share-random-state")
    datasets_run = RunContext(frameworks={"datasets": "train.log:1"})
    torch_run = RunContext(frameworks={"pytorch": "train.log:1"})
    assert other not in shown([top, other], datasets_run, words_only=False)
    assert other in shown([top, other], torch_run, words_only=False)
    assert other in shown([top, other], RunContext(), words_only=False)  # nothing seen
