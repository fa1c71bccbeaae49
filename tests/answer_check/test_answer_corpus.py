"""The answer corpus: our own reports pass, each hand-broken copy fails on exactly its planted
rule, and answers written in free layout pass when clean and fail when broken.

Our reports are the golden `tests/cases/*/expected.md`, checked with the case's own
inputs as evidence (so every quote of a High report is looked up in the real log).
Every rule holds on every one of them: a report that breaks one fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.answer_check import AnswerCheck, check_answer
from trainwreck.answer_check.model import RULE_IDS
from trainwreck.curation.cases import load_case
from trainwreck.kb import load

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases"
ANSWERS = Path(__file__).parent / "answers"
GOLDEN = sorted(path.parent for path in CASES.glob("*/expected.md"))
# The broken copies are made from this case's report; its inputs are their evidence.
BASE_CASE = CASES / "qwen-vl-finetune-host-oom-killed-135"
BROKEN = sorted((ANSWERS / "broken").glob("*.md"))
FREE = sorted((ANSWERS / "free").glob("*.md"))
# Free-layout answers checked against real evidence: a case's inputs (their quotes come from
# them) or a real model config (the bundled Qwen2.5-7B-Instruct's, a grouped-query model).
QWEN_CONFIG = ANSWERS / "free" / "qwen2.5-7b-instruct" / "config.json"
FREE_EVIDENCE = {
    "clean-vllm-kv-cache": load_case(CASES / "vllm-max-model-len-bonito-7").inputs,
    "broken-unknown-key": load_case(CASES / "vllm-max-model-len-bonito-7").inputs,
    "broken-kv-from-attention-heads": (QWEN_CONFIG,),
}
# A script that does not compile is also a Python block that does not parse (report.audit).
ALSO_FAILS = {"broken-verification-script-syntax": {"block-does-not-parse"}}


def _planted(path: Path) -> str:
    """The rule a broken answer's file name plants: `unknown-key`, `high-without-conditions-x`."""
    name = path.stem.removeprefix("broken-")
    return next(rule for rule in sorted(RULE_IDS, key=len, reverse=True) if name.startswith(rule))


def _failed(check: AnswerCheck) -> set[str]:
    return {result.rule for result in check.failures}


@pytest.mark.parametrize("case", GOLDEN, ids=lambda case: case.name)
def test_our_report_passes_every_rule_with_its_own_evidence(case: Path) -> None:
    text = (case / "expected.md").read_text(encoding="utf-8")
    check = check_answer(text.replace("<kb-version>", load().version), load_case(case).inputs)
    assert check.passed, check.failures
    assert "### Verify" in text


def test_the_base_of_the_broken_copies_passes() -> None:
    text = (ANSWERS / "base-host-oom.md").read_text(encoding="utf-8")
    assert check_answer(text, load_case(BASE_CASE).inputs).passed


@pytest.mark.parametrize("path", BROKEN, ids=lambda path: path.stem)
def test_a_broken_copy_fails_on_exactly_its_planted_rule(path: Path) -> None:
    check = check_answer(path.read_text(encoding="utf-8"), load_case(BASE_CASE).inputs)
    assert _failed(check) == {_planted(path)}, check.failures
    assert all(
        result.line is not None for result in check.failures if result.rule != "verification-script"
    )


def test_the_broken_copies_cover_every_rule() -> None:
    planted = {
        _planted(path) for path in (*BROKEN, *(p for p in FREE if p.stem.startswith("broken")))
    }
    assert planted >= set(RULE_IDS)


@pytest.mark.parametrize("path", FREE, ids=lambda path: path.stem)
def test_free_layout_answers_pass_clean_and_fail_on_their_planted_rule(path: Path) -> None:
    check = check_answer(path.read_text(encoding="utf-8"), FREE_EVIDENCE.get(path.stem, ()))
    if path.stem.startswith("clean"):
        assert check.passed, check.failures
    else:
        assert _failed(check) == {_planted(path), *ALSO_FAILS.get(path.stem, set())}, check.failures


def test_the_corpus_holds_at_least_forty_answers() -> None:
    assert len(GOLDEN) + len(BROKEN) + len(FREE) >= 40
    assert sum(path.stem.startswith("clean") for path in FREE) >= 4
