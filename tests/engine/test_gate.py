"""Context gating on real knowledge-base pages: framework required, stated class."""

from __future__ import annotations

from pathlib import Path

from trainwreck.curation.cases import diagnose_folder
from trainwreck.engine.gate import (
    FRAMEWORK_ABSENT_FACTOR,
    OFF_CLASS_FACTOR,
    OFF_CLASS_SPECIFIC_FACTOR,
    RELATED_CLASS_FACTOR,
    gate_factor,
    specific_hit,
)
from trainwreck.engine.match import Hit, Match
from trainwreck.engine.rank import DEMOTED_STEP
from trainwreck.kb import load
from trainwreck.kb.schema import Pattern, Signature
from trainwreck.model import RunContext, SourceRef, StatedClass

REF = SourceRef(source="train.log", line=1, text="x")
BATCH_6 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-6"


def _page(page_id: str) -> Pattern:
    page = load().get(page_id)
    assert page is not None
    return page


def _match(page: Pattern, weight: float) -> Match:
    return Match(page, (Hit(Signature(regex="x", weight=weight), REF),))


def _stated(category: str) -> StatedClass:
    return StatedClass.model_validate({"category": category, "source": "symptoms", "words": ["w"]})


def test_a_vllm_page_is_demoted_in_a_run_without_vllm_unless_its_own_message_matched() -> None:
    page = _page("vllm-preemption-kv-cache")
    assert page.requires == ("vllm",)
    without = RunContext(frameworks={"pytorch": "train.log:1"})
    with_vllm = RunContext(frameworks={"vllm": "train.log:3"})
    assert gate_factor(page, _match(page, 0.5), without)[0] == FRAMEWORK_ABSENT_FACTOR
    assert gate_factor(page, _match(page, 0.5), with_vllm)[0] == 1.0
    assert gate_factor(page, _match(page, 0.8), without)[0] == 1.0  # specific signature


def test_a_torch_page_does_not_apply_to_a_jax_only_run() -> None:
    page = _page("cuda-oom-capacity")
    jax_run = RunContext(frameworks={"jax": "train.log:1"})
    factor, notes = gate_factor(page, _match(page, 0.5), jax_run)
    assert factor == FRAMEWORK_ABSENT_FACTOR and "pytorch" in notes[0]


def test_a_torch_page_does_not_apply_to_a_llama_cpp_run() -> None:
    """batch-26's llama.cpp chat that stops answering led with torch.distributed's
    process-group page: llama.cpp is C++, its run shows no torch."""
    page = _page("process-group-not-destroyed-at-exit")
    llama_run = RunContext(frameworks={"llama-cpp": "symptoms"})
    factor, notes = gate_factor(page, None, llama_run)
    assert factor == FRAMEWORK_ABSENT_FACTOR and "pytorch" in notes[0]
    converter_run = RunContext(frameworks={"llama-cpp": "symptoms", "pytorch": "train.log:2"})
    assert gate_factor(page, None, converter_run)[0] == 1.0


def test_a_plain_python_page_applies_to_a_jax_only_run() -> None:
    """flax#3239 (batch-6, judged wrong at e5dd01d): flax 0.7.0 calls a jax.tree_util function
    the installed jax 0.3.25 lacks; the removed-API page names only Python, yet was demoted as
    a torch page and an unmatched JAX tracer page took the top."""
    page = _page("api-missing-in-installed-release")
    jax_run = RunContext(frameworks={"jax": "installed: jax 0.3.25"})
    assert gate_factor(page, _match(page, 0.4), jax_run) == (1.0, [])
    folder = BATCH_6 / "flax-070-colab-tpu-old-jax-0325-pytree-keys-3239"
    ranked = [h.id for h in diagnose_folder(folder).hypotheses]
    # the JAX page for the same mechanism (a library of another JAX era) leads, and the
    # plain-Python page it refines follows it, above the JAX tracer page
    assert ranked[:2] == ["jax-ecosystem-removed-api", "api-missing-in-installed-release"]


def test_a_page_outside_the_stated_class_needs_a_specific_signature() -> None:
    page = _page("cuda-oom-capacity")  # oom
    hang = RunContext(stated=_stated("hang"))
    assert gate_factor(page, _match(page, 0.5), hang)[0] == OFF_CLASS_FACTOR
    assert gate_factor(page, _match(page, 0.8), hang)[0] == OFF_CLASS_SPECIFIC_FACTOR
    assert gate_factor(page, _match(page, 0.5), RunContext(stated=_stated("oom")))[0] == 1.0


def test_a_related_class_is_demoted_only_a_little() -> None:
    page = _page("loss-divergence-high-learning-rate")  # divergence
    nan = RunContext(stated=_stated("nan_inf"))
    assert gate_factor(page, _match(page, 0.5), nan)[0] == RELATED_CLASS_FACTOR


def test_a_page_for_any_class_is_never_off_class() -> None:
    page = _page("version-regression-between-releases")
    assert gate_factor(page, None, RunContext(stated=_stated("hang")))[0] == 1.0


def test_a_page_is_not_off_class_for_a_class_its_mechanism_is_seen_as() -> None:
    """batch-2 mvadapter#14, batch-4 catvton#22, batch-5 instantstyle#2: "black images"
    state a wrong output, and the fp16 VAE page (a NaN mechanism) lost to the gate."""
    page = _page("vae-fp16-overflow-nan-latents")
    assert page.category == "nan_inf" and "wrong_output" in page.seen_as
    black = RunContext(stated=_stated("wrong_output"), frameworks={"diffusers": "train.log"})
    hang = RunContext(stated=_stated("hang"), frameworks={"diffusers": "train.log"})
    assert gate_factor(page, _match(page, 0.5), black)[0] == 1.0
    assert gate_factor(page, _match(page, 0.5), hang)[0] == OFF_CLASS_FACTOR


def test_a_strong_code_finding_is_as_specific_as_the_error_message() -> None:
    page = _page("loss-accumulated-with-graph")
    code = Match(page, (Hit(Signature(finding="code.loss_accumulated_live", weight=0.8), REF),))
    weak = Match(page, (Hit(Signature(finding="code.loss_accumulated_live", weight=0.5), REF),))
    other = Match(page, (Hit(Signature(finding="loss.diverged", weight=0.9), REF),))
    assert specific_hit(code)
    assert not specific_hit(weak) and not specific_hit(other)


def test_a_missing_attribute_of_another_release_answers_a_stated_crash() -> None:
    """batch-2 trl-xgrpo#51: a subclass reads an attribute its trl release does not set; the
    user states a crash (AttributeError) and the release page, seen as a crash, is among the
    leaders (its words-only score ties two specific pages; as a catch-all it follows them,
    shown one step lower)."""
    batch_2 = BATCH_6.parent / "batch-2"
    shown = diagnose_folder(batch_2 / "trl-xgrpo-num-iterations-version-51").hypotheses[:3]
    release = next(h for h in shown if h.id == "api-missing-in-installed-release")
    assert release.category == "crash"
    assert release.score == round(shown[0].score - DEMOTED_STEP, 4)


def test_code_that_was_read_without_the_mistake_does_not_retrieve_its_page() -> None:
    """batch-10 reproduction, judged family at 2c91f17: its train.py computes no token metric
    over -100 labels, yet the words 'accuracy' and 'flat' put that page first."""
    batch_10 = BATCH_6.parent / "batch-10"
    shown = diagnose_folder(batch_10 / "r1-transformers-review-classifier-accuracy-flat-repro")
    assert "metric-counts-ignored-label-positions" not in [h.id for h in shown.hypotheses]


def test_a_trainer_evaluation_page_is_demoted_in_a_run_without_transformers() -> None:
    """t18A-pytorch-validation-oom-after-first-epoch (batch-18, judged family at b84b7b58): a
    plain-PyTorch ASR model dies of CUDA OOM in its own validation loop; the page about the HF
    Trainer concatenating logits ranked first on the words 'validation' and 'OOM', over the
    page about evaluating without torch.no_grad() (the confirmed cause)."""
    page = _page("hf-eval-predictions-accumulated-on-gpu")
    assert page.requires == ("transformers",)
    batch_18 = BATCH_6.parent / "batch-18"
    shown = diagnose_folder(batch_18 / "t18A-pytorch-validation-oom-after-first-epoch")
    top = shown.hypotheses[:3]
    assert page.id not in [h.id for h in top]
    # the no_grad page shares the leading score (a tie within TIE, which the KB's word
    # weights can tip either way as pages are added)
    assert "inference-without-no-grad" in [h.id for h in top if h.score == top[0].score]


def test_a_page_the_description_excludes_is_no_candidate_even_when_its_log_line_matched() -> None:
    """batch-13's crack-segmentation reproduction: BCEWithLogitsLoss below zero means targets
    outside [0, 1]; the unbounded-loss page's negative-loss line matched the log and led."""
    case = BATCH_6.parent / "batch-13" / "r1-accelerate-crack-segmentation-loss-negative-repro"
    ids = [h.id for h in diagnose_folder(case).hypotheses]
    assert "loss-unbounded-below-sign-error-or-missing-hinge" not in ids
    assert ids[0] == "bce-targets-outside-zero-one"
