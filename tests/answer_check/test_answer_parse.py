"""Reading answers whatever their headings: the synonyms table, labels, changes, quotes."""

from __future__ import annotations

import pytest

from trainwreck.answer_check.parse import changes_in, parse
from trainwreck.answer_check.sections import kind_of


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("Diagnosis", "diagnosis"),
        ("Root cause", "root_cause"),
        ("1. Root Cause:", "root_cause"),
        ("Why it happens", "mechanism"),
        ("Confidence: High", "confidence"),
        ("If That Doesn't Work", "alternatives"),
        ("Other causes", "alternatives"),
        ("How to verify", "verify"),
        ("Consolidated Config", "config"),
        ("Prevention", "prevention"),
        ("Similar Confirmed Failures", "similar"),
    ],
)
def test_headings_map_to_their_region(title: str, kind: str) -> None:
    assert kind_of(title) == kind


def test_an_unknown_label_starts_no_region() -> None:
    assert kind_of("Note", exact=True) is None


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "   - `TrainingArguments.bf16`: `false` → `true`: why",
            ("TrainingArguments.bf16", "false", "true"),
        ),
        ("- `lr` from `1e-4` to `1e-5`", ("lr", "1e-4", "1e-5")),
        ("- `max_model_len`: 32768 -> 16384", ("max_model_len", "32768", "16384")),
        (
            "   - `cli.docker run --shm-size`: `unset` → `16g`",
            ("cli.docker run --shm-size", "unset", "16g"),
        ),
        (
            "Set `ds_config.train_batch_size` to `auto`.",
            ("ds_config.train_batch_size", None, "auto"),
        ),
        ("- `gradient_checkpointing`: `true`", ("gradient_checkpointing", None, "true")),
    ],
)
def test_a_change_line_gives_its_key_before_and_after(
    line: str, expected: tuple[str, str | None, str]
) -> None:
    (change,) = changes_in(1, line)
    assert (change.path, change.before, change.after) == expected


def test_a_heading_inside_a_code_block_is_code() -> None:
    answer = parse("## Fix\n\n1. Do it. [no KB]\n\n```bash\n# Prevention\n```\n")
    assert [region.kind for region in answer.regions] == ["fix"]
    assert answer.guards == ()
