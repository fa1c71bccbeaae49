"""`kb lint` catches each kind of broken page; the packaged KB loads cleanly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from trainwreck.curation.lint import lint
from trainwreck.kb import load
from trainwreck.model import CATEGORIES

GOOD: dict[str, Any] = {
    "id": "example-pattern",
    "title": "Example",
    "category": "crash",
    "frameworks": ["pytorch"],
    "signatures": [{"regex": "boom (?P<n>\\d+)", "weight": 0.8}],
    "root_cause": "r",
    "mechanism": "m",
    "fixes": [{"action": "a", "changes": [{"path": "env.X", "after": "1", "default": "0"}]}],
    "discriminator": "d",
    "citations": [
        {"url": "https://github.com/pytorch/pytorch/blob/v2.3.0/README.md", "detail": "d"}
    ],
    "prevention": [
        {
            "guard": "g1",
            "threshold": "above 2",
            "code": {"template": "nonfinite-loss", "params": {"max_consecutive": 2}},
        },
        {
            "guard": "g2",
            "threshold": "below 5%",
            "code": {"template": "data-wait", "params": {"max_wait_fraction": 0.05}},
        },
    ],
    "examples": {"fires": ["boom 3"], "quiet": ["boom"]},
}


def _lint_one(tmp_path: Path, **changes: Any) -> list[str]:
    (tmp_path / "p.yaml").write_text(yaml.safe_dump({**GOOD, **changes}))
    return lint(tmp_path, None)[1]


def test_good_pattern_has_no_problems(tmp_path: Path) -> None:
    assert _lint_one(tmp_path) == []


def test_moving_target_citation_is_rejected(tmp_path: Path) -> None:
    url = "https://github.com/pytorch/pytorch/blob/main/README.md"
    problems = _lint_one(tmp_path, citations=[{"url": url, "detail": "d"}])
    assert any("moving target" in p for p in problems)


def test_docs_latest_citation_is_rejected(tmp_path: Path) -> None:
    url = "https://deepspeed.readthedocs.io/en/latest/zero3.html"
    assert any(
        "moving target" in p for p in _lint_one(tmp_path, citations=[{"url": url, "detail": "d"}])
    )


def test_fires_that_do_not_fire_and_quiet_that_fire(tmp_path: Path) -> None:
    problems = _lint_one(tmp_path, examples={"fires": ["bang"], "quiet": ["boom 7"]})
    assert any("fires example" in p for p in problems)
    assert any("quiet example" in p for p in problems)


def test_a_multi_line_example_is_matched_line_by_line(tmp_path: Path) -> None:
    """A `^...$` regex anchors to a line of the log, so it hits a line of a multi-line example."""
    signatures = [{"regex": "^boom (?P<n>\\d+)$", "weight": 0.8}]
    examples = {"fires": ["start\nboom 3\nend\n"], "quiet": ["start\nboom\n"]}
    assert _lint_one(tmp_path, signatures=signatures, examples=examples) == []


def test_a_finding_id_no_analyzer_declares_is_reported(tmp_path: Path) -> None:
    """A typo in a `finding:` signature (or `when`/`ruled_out_by`) would never fire."""
    signatures = [*GOOD["signatures"], {"finding": "cuda.oom.fragmentaton"}]
    fixes = [{**GOOD["fixes"][0], "when": ["loss.non_finit"]}]
    problems = _lint_one(
        tmp_path, signatures=signatures, fixes=fixes, ruled_out_by=["nccl.timeout"]
    )
    assert problems == [
        "example-pattern: finding names a finding no analyzer emits: 'cuda.oom.fragmentaton'",
        "example-pattern: when names a finding no analyzer emits: 'loss.non_finit'",
    ]


def test_recommending_the_default_is_not_a_fix(tmp_path: Path) -> None:
    fixes = [{"action": "a", "changes": [{"path": "env.X", "after": "0", "default": "0"}]}]
    assert any("recommends the default" in p for p in _lint_one(tmp_path, fixes=fixes))


def test_threshold_without_number(tmp_path: Path) -> None:
    prevention = [{"guard": "g", "threshold": "when high"}, {"guard": "g", "threshold": "3"}]
    assert any("no number" in p for p in _lint_one(tmp_path, prevention=prevention))


def test_a_pattern_needs_two_guards_with_code(tmp_path: Path) -> None:
    prevention = [{**g, "code": None} for g in GOOD["prevention"][:1]] + GOOD["prevention"][1:]
    problems = _lint_one(tmp_path, prevention=prevention)
    assert any("two prevention guards with code" in p for p in problems)


def test_guard_code_is_checked_by_lint(tmp_path: Path) -> None:
    def with_code(code: dict[str, Any]) -> str:
        guards = [{**GOOD["prevention"][0], "code": code}, *GOOD["prevention"][1:]]
        return "\n".join(_lint_one(tmp_path, prevention=guards))

    assert "unknown guard template" in with_code({"template": "no-such-guard"})
    assert "has no params" in with_code({"template": "nonfinite-loss", "params": {"x": 1}})
    # YAML reads 1e-06 as text: a numeric threshold must stay a number
    bad = {"template": "nonfinite-loss", "params": {"max_consecutive": "1e-06"}}
    assert "must be a number" in with_code(bad)
    assert "guard" not in with_code(GOOD["prevention"][0]["code"])


def test_bad_regex_and_missing_citation_fail_at_load(tmp_path: Path) -> None:
    assert "does not compile" in _lint_one(tmp_path, signatures=[{"regex": "(unclosed"}])[0]
    assert "citations" in _lint_one(tmp_path, citations=[])[0]


def test_duplicate_ids_fail(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(yaml.safe_dump(GOOD))
    (tmp_path / "b.yaml").write_text(yaml.safe_dump(GOOD))
    assert "already used" in lint(tmp_path, None)[1][0]


def test_missing_example_case_is_reported(tmp_path: Path) -> None:
    kb_dir = tmp_path / "kb"
    kb_dir.mkdir()
    (kb_dir / "p.yaml").write_text(
        yaml.safe_dump({**GOOD, "examples": {"cases": ["tests/cases/nope"], "fires": ["boom 1"]}})
    )
    assert any("example case not found" in p for p in lint(kb_dir, tmp_path)[1])


def test_packaged_kb_covers_every_category() -> None:
    kb = load()
    assert len(kb.patterns) >= 30
    assert {p.category for p in kb.patterns} == set(CATEGORIES)


def test_placeholder_values_are_not_fixes(tmp_path: Path) -> None:
    fixes = [{"action": "a", "changes": [{"path": "env.X", "after": "<your value>"}]}]
    assert any("placeholder" in p for p in _lint_one(tmp_path, fixes=fixes))
    specifier = [{"action": "a", "changes": [{"path": "requirements.txt", "after": "torch<2.5"}]}]
    assert _lint_one(tmp_path, fixes=specifier) == []


def test_a_keyword_split_at_a_comma_inside_brackets_is_reported(tmp_path: Path) -> None:
    """`keywords: [x, (N, 1)]` loads as 'x', '(N' and '1)': the piece that closes a bracket it
    never opened is reported (it would name the page wherever a text holds '1)'); a prefix that
    only opens one, such as 'list(set(', is a keyword on purpose."""
    (tmp_path / "p.yaml").write_text(
        yaml.safe_dump(GOOD) + 'keywords: [broadcasting, (N, 1), "list(set(", "(N, N)"]\n'
    )
    assert lint(tmp_path, None)[1] == [
        "example-pattern: keyword '1)' closes a bracket it never opened: quote the whole "
        "keyword in the YAML"
    ]
