"""`check` stays fast on a config of thousands of unknown keys (issue 16: 9,000 took 131 s,
through the CLI and MCP's check_config): the close-spelling search stops at MAX_TYPO_KEYS
unknown keys, saying so, and finding a key's line is one pass over the text."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from trainwreck.limits import MAX_TYPO_KEYS
from trainwreck.verify.keys import typo_of
from trainwreck.verify.read import read_text
from trainwreck.verify.run import check_documents, check_files

# Issue 16's measurement: 9,000 unknown keys, one JSON object; the fuzz limit per run is 20 s.
SLOW_KEYS = 9_000
MAX_SECONDS = 20


def _typos(count: int) -> str:
    """A TrainingArguments config of `count` near-misses of learning_rate, one per line."""
    return json.dumps({f"learning_rate_{n}": n for n in range(count)}, indent=1)


@pytest.mark.parametrize("count", [MAX_TYPO_KEYS - 1, MAX_TYPO_KEYS, MAX_TYPO_KEYS + 1])
def test_close_spellings_are_searched_up_to_the_cap(count: int) -> None:
    document = read_text("args.json", _typos(count))
    report = check_documents([document], "transformers", use_live=False)[0]
    unknown = [p for p in report.problems if p.kind == "unknown-key"]
    assert len(unknown) == count
    suggested = [p.key for p in unknown if "did you mean `learning_rate`" in p.message]
    assert len(suggested) == min(count, MAX_TYPO_KEYS)
    assert unknown[-1].line == count + 1  # each key's own line, after the `{`
    past = [note for note in report.notes if "not searched for a close spelling" in note]
    if count > MAX_TYPO_KEYS:
        assert len(past) == 1 and past[0].startswith(f"1 unknown keys past the first {count - 1} ")
        assert unknown[-1].key not in suggested
    else:
        assert past == []


def test_nine_thousand_unknown_keys_are_checked_in_bounded_time(tmp_path: Path) -> None:
    config = tmp_path / "args.json"
    config.write_text(json.dumps({f"unknown_key_number_{n}": n for n in range(SLOW_KEYS)}))
    for framework in (None, "transformers"):  # detected, then named (every key reported)
        started = time.perf_counter()
        report = check_files([str(config)], framework, use_live=False)[0]
        assert time.perf_counter() - started < MAX_SECONDS, framework
        assert report.error is None
    assert sum(p.kind == "unknown-key" for p in report.problems) > MAX_TYPO_KEYS
    assert all(p.line == 1 for p in report.problems)


@pytest.mark.parametrize(
    ("key", "found"),
    [
        ("gradient_accumulation_stpes", "gradient_accumulation_steps"),  # 1 edit, bound 3
        ("gradient_acumulation_stpse", "gradient_accumulation_steps"),  # 3 edits: at the bound
        ("gradeint_acumulation_stpse", None),  # 4 edits: past it
    ],
)
def test_a_typo_is_found_up_to_its_bound_of_edits(key: str, found: str | None) -> None:
    assert typo_of(key, ["gradient_accumulation_steps", "learning_rate"]) == found


def test_a_key_is_found_on_its_line_however_a_line_spells_it() -> None:
    text = "accelerate launch --num-processes 2 train.py \\\n  --max-grad-norm 1.0 --lr_x 2\n"
    document = read_text("run.sh", text)
    assert document.line_of("max_grad_norm") == 2  # as a --flag with dashes
    assert document.line_of("num_processes") == 1
    assert document.line_of("grad_norm") is None  # part of a word is not the word
    assert read_text("a.yaml", "x: 1\n'a b': 2\n").line_of("a b") == 2  # not one word
