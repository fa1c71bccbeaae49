"""code.regex_nested_quantifier: a repeated group holding its own quantifier."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, file_findings, fires

ID = "code.regex_nested_quantifier"


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"^([a-z0-9]+\s?)*$", True),
        (r"(\w+)+@", True),
        (r"(?:a*b?)+c", True),
        (r"^[a-z0-9\s]*$", False),
        (r"(\d+)-(\d+)", False),
        (r"(?:ab)+", False),
        # each round opens with a separator the inner repeat cannot match
        (r"^[a-z]+(?:\s[a-z0-9]+)*$", False),
        (r"(?:,\d+)*", False),
    ],
)
def test_fires_only_on_nested_quantifiers(pattern: str, expected: bool) -> None:
    assert fires(f"PLAIN = re.compile(r'{pattern}')", ID) is expected


def test_the_metric_regex_is_found() -> None:
    script = BATCH_12 / "r2-transformers-faq-gpt2-trainer-stuck-first-eval-repro" / "train.py"
    assert ID in file_findings(script)
