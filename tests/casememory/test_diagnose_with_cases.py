"""The case memory inside a diagnosis: found, shown, and a hypothesis when no page covers it.

Evidence is the real log of tests/cases/peft-target-modules-internvl-150; the store
holds another thread with the same error (huggingface/peft-style target-modules errors
on Baichuan, tests/cases/peft-target-modules-baichuan-43).
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

from jsonschema import Draft202012Validator

from trainwreck.cases import load_memory
from trainwreck.cases.match import SHOW_SIMILARITY, bundled_records
from trainwreck.curation.cases import load_case
from trainwreck.pipeline import diagnose
from trainwreck.report import render

CASE = Path(__file__).resolve().parents[1] / "cases" / "peft-target-modules-internvl-150"
SOURCE = "https://github.com/OpenGVLab/InternVL/issues/150"
OTHER = "peft-target-modules-baichuan-43"


def test_a_case_does_not_find_itself_when_left_out_but_finds_the_same_error() -> None:
    found = diagnose([str(CASE / "train.log")], cases=load_memory(exclude=(SOURCE,)))
    ids = [c.id for c in found.similar_cases]
    assert "peft-target-modules-internvl-150" not in ids
    assert OTHER in ids
    other = next(c for c in found.similar_cases if c.id == OTHER)
    assert other.similarity >= SHOW_SIMILARITY
    assert other.matched and other.matched[0].source.endswith("train.log")


def test_switched_off_memory_finds_nothing() -> None:
    found = diagnose([str(CASE / "train.log")], cases=load_memory(bundled=False))
    assert found.similar_cases == ()


def test_a_close_case_no_shown_page_covers_becomes_a_hypothesis_in_score_order() -> None:
    record = next(r for r in bundled_records() if r.id == OTHER)
    team = record.model_copy(update={"id": "team-incident-12", "page": None, "source": "INC-12"})
    others = (SOURCE, record.source)  # the store keeps no thread with this error but the team's
    found = diagnose([str(CASE / "train.log")], cases=load_memory([team], exclude=others))
    ids = [h.id for h in found.hypotheses]
    assert "case:team-incident-12" in ids
    hypothesis = found.hypotheses[ids.index("case:team-incident-12")]
    assert hypothesis.root_cause == record.cause
    assert hypothesis.evidence, "the run's matching lines are its evidence"
    assert hypothesis.citations[0].url is None  # not a web link: named in the detail
    assert "INC-12" in hypothesis.citations[0].detail
    scores = [h.score for h in found.hypotheses]
    assert scores == sorted(scores, reverse=True)
    assert found.similar_cases[0].store == "local"


def test_reports_list_similar_failures_with_links_and_json_fits_the_schema() -> None:
    found = diagnose([str(CASE / "train.log")], cases=load_memory(exclude=(SOURCE,)))
    markdown = render(found, "markdown", full=True)
    assert "### Similar Confirmed Failures" in markdown
    assert "(https://github.com/" in markdown.split("### Similar Confirmed Failures")[1]
    assert "Similar Confirmed Failures" in render(found, "html")
    schema = json.loads(files("trainwreck.report").joinpath("diagnosis.schema.json").read_text())
    report = json.loads(render(found, "json"))
    assert list(Draft202012Validator(schema).iter_errors(report)) == []
    assert report["similar_cases"][0]["similarity"] >= SHOW_SIMILARITY


def test_a_case_hypothesis_never_goes_ahead_of_a_confident_page() -> None:
    """tests/cases/repro-dataloader-too-many-workers: a team incident with the same warning
    (first-sight batch-3 query2labels#9, filed under no page) matches at 1.0, but the page is
    High."""
    record = next(
        r for r in bundled_records() if r.id == "query2labels-dataloader-30-workers-freeze-9"
    )
    team = record.model_copy(update={"id": "team-incident-7", "page": None, "source": "INC-7"})
    case = load_case(CASE.parent / "repro-dataloader-too-many-workers")
    found = diagnose(
        [str(p) for p in case.inputs],
        symptoms=case.symptoms,
        cases=load_memory([team], exclude=(record.source,)),
    )
    top = found.hypotheses[0]
    assert (top.id, top.confidence) == ("dataloader-too-many-workers", "high")
    later = [h for h in found.hypotheses if h.id.startswith("case:")]
    assert later and all(h.score <= top.score for h in later)


def test_a_thread_none_of_whose_lines_matched_leads_no_page() -> None:
    """batch-31's device_map thread (huggingface/transformers, symptoms only): a Qwen2 fp16
    NaN thread shared words scattered over the description, matched none of its own lines,
    and led the report above every page retrieved by the same description."""
    symptoms = (
        "On a Mac with no GPUs, Python 3.9 and transformers 4.21.3, I call "
        '`transformers.AutoModelForCausalLM.from_pretrained("gpt2", device_map="auto")`. '
        "I expected to get a model back, but the call raises an exception instead."
    )
    found = diagnose([], symptoms=symptoms, cases=load_memory())
    weak = [c for c in found.similar_cases if not c.lines]
    assert weak, "the description alone still finds a look-alike thread"
    assert not found.hypotheses[0].id.startswith("case:")
    scores = [h.score for h in found.hypotheses]
    assert scores == sorted(scores, reverse=True)
