"""Similarity between a run's evidence and a record, at the index's thresholds.

The records here are built from real error lines (the peft target-modules error
of tests/cases/peft-target-modules-internvl-150, the CUDA OOM message) so the
words and their rarity behave as in the store.
"""

from __future__ import annotations

import math

import pytest

from trainwreck.cases.index import (
    LINE_MATCH,
    RARE_MIN_RECORDS,
    SPECIFIC_WEIGHT,
    CaseIndex,
)
from trainwreck.cases.normalize import words
from trainwreck.cases.records import CaseRecord, thread_key

PEFT = (
    "ValueError: Target modules ['q_proj', 'v_proj'] not found in the base model. "
    "Please check the target modules and try again."
)
OOM = (
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB "
    "(GPU 0; 23.69 GiB total capacity; 22.76 GiB already allocated)"
)


def record(name: str, evidence: str, category: str = "crash") -> CaseRecord:
    return CaseRecord.model_validate(
        {
            "id": name,
            "source": f"https://github.com/example/{name}/issues/1",
            "confirmed_by": "maintainer",
            "category": category,
            "evidence": evidence,
            "cause": f"cause of {name}",
            "collected": "test",
        }
    )


def filler(count: int) -> list[CaseRecord]:
    """Unrelated records, so the store has a realistic size and rarity."""
    return [record(f"other{i}", f"KeyError: field{i} missing in section{i}") for i in range(count)]


def test_same_error_with_other_names_and_numbers_is_a_close_match() -> None:
    index = CaseIndex([("bundled", [record("peft", PEFT), *filler(300)])])
    run = [words(PEFT.replace("'q_proj', 'v_proj'", "'wqkv'"))]
    [found] = index.search(run, 3)
    assert found.record.id == "peft"
    assert found.similarity >= 0.8
    assert found.lines and found.query == (0,)


def test_boilerplate_shared_by_many_records_is_not_a_match() -> None:
    """The OOM text in 10% of the store names a family, not a cause."""
    ooms = [record(f"oom{i}", f"{OOM}\nstep {i}", "oom") for i in range(30)]
    index = CaseIndex([("bundled", [*ooms, *filler(270)])])
    assert index.search([words(OOM)], 3) == []


@pytest.mark.parametrize("holders", [RARE_MIN_RECORDS, RARE_MIN_RECORDS + 1])
def test_a_word_is_rare_up_to_the_minimum_count_in_a_small_store(holders: int) -> None:
    index = CaseIndex(
        [("bundled", [*(record(f"r{i}", "zerothree stage") for i in range(holders)), *filler(50)])]
    )
    assert ("zerothree" in index.weights.rare) == (holders <= RARE_MIN_RECORDS)


def test_specificity_discount_grows_with_the_rare_words_shared_until_it_saturates() -> None:
    rare = ["alphaword", "betaword", "gammaword", "deltaword", "epsilonword"]
    index = CaseIndex([("bundled", [record("target", " ".join(rare)), *filler(300)])])
    idf = math.log(1 + 301)
    similarities = []
    for count in range(1, len(rare) + 1):
        [found] = index.search([frozenset(rare[:count])], 1)
        share = count / len(rare)
        assert found.similarity == pytest.approx(
            share * min(1.0, count * idf / SPECIFIC_WEIGHT), abs=1e-3
        )
        similarities.append(found.similarity)
    assert similarities == sorted(similarities)
    assert similarities[-1] == pytest.approx(1.0)


@pytest.mark.parametrize(("shared", "quoted"), [(3, True), (2, False)])
def test_a_record_line_is_quoted_from_the_line_match_share(shared: int, quoted: bool) -> None:
    line = "aaword bbword ccword ddword"
    index = CaseIndex([("bundled", [record("target", f"{line}\nother line here"), *filler(300)])])
    run = frozenset(line.split()[:shared])
    [found] = index.search([run], 1)
    assert (shared / 4 >= LINE_MATCH) == quoted
    assert (line in found.lines) == quoted


def test_words_scattered_over_several_run_lines_do_not_assemble_a_record_line() -> None:
    line = "aaword bbword ccword ddword"
    index = CaseIndex([("bundled", [record("target", line), *filler(300)])])
    together = index.search([frozenset(line.split())], 1)[0].similarity
    scattered = index.search([frozenset([w]) for w in line.split()], 1)[0].similarity
    assert together == pytest.approx(1.0)
    assert scattered < together / 2


def test_a_left_out_thread_weighs_as_if_it_had_never_been_indexed() -> None:
    """Leave-one-out: the same weights as an index built without the thread."""
    records = [record("peft", PEFT), record("peft2", PEFT.replace("q_proj", "wqkv")), *filler(300)]
    run = [words(PEFT)]
    left_out = CaseIndex([("bundled", records)]).search(
        run, 3, exclude=frozenset({"example/peft#1"})
    )
    rebuilt = CaseIndex([("bundled", [r for r in records if r.id != "peft"])]).search(run, 3)
    assert [(s.record.id, s.similarity) for s in left_out] == [
        (s.record.id, s.similarity) for s in rebuilt
    ]
    assert all(s.record.id != "peft" for s in left_out)


def test_a_left_out_record_id_is_matched_whatever_its_case() -> None:
    """`load_memory` case-folds what it excludes; a reproduction named `r16D-...` must still
    leave its own record out (batch-15 and -16 reproductions found themselves before)."""
    records = [record("r16D-peft-repro", PEFT), *filler(300)]
    found = CaseIndex([("bundled", records)]).search(
        [words(PEFT)], 3, exclude=frozenset({thread_key("r16D-peft-repro")})
    )
    assert all(s.record.id != "r16D-peft-repro" for s in found)


def test_a_line_that_only_names_the_exception_matches_nothing() -> None:
    """t19B-lightning-modelcheckpoint-monitor-key-not-found (batch-19, judged family at
    8c2ac608): its ModelCheckpoint monitor-key error recalled, at 0.59, a record whose only
    evidence line was 'pytorch_lightning.utilities.debugging.MisconfigurationException:' - a
    CPU-only torch build. The exception's name says which library refused, not why."""
    bare = record("bare", "pytorch_lightning.utilities.debugging.MisconfigurationException:")
    index = CaseIndex([("bundled", [bare, *filler(300)])])
    run = [
        words(
            "pytorch_lightning.utilities.exceptions.MisconfigurationException: "
            "ModelCheckpoint(monitor='val_loss') not found in the returned metrics"
        )
    ]
    assert index.search(run, 3) == []
