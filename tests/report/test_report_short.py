"""The default Markdown report fits one screen; `--full` is the report as it was (issue 18)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from report_fixtures import oom_diagnosis, with_evidence

from helpers import run
from trainwreck.model import ConfigBlock, Diagnosis
from trainwreck.pipeline import diagnose
from trainwreck.report import to_markdown, to_short_markdown
from trainwreck.report.short import BLOCK_LINES, QUOTE_CHARS

EXAMPLE = Path(__file__).parents[2] / "examples" / "llama-lora-oom"
SCREEN_LINES = 60  # the bound for the bundled example's default report
SIMILAR = "### Similar Confirmed Failures"  # only when a thread is close enough to show
FULL_ONLY = ("**Mechanism:**", "### Arithmetic", "### Prevention", SIMILAR)


@cache
def example() -> Diagnosis:
    return diagnose([str(EXAMPLE)])


def test_default_report_of_the_example_fits_one_screen() -> None:
    result = run("diagnose", str(EXAMPLE))
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) <= SCREEN_LINES
    assert not [part for part in FULL_ONLY if part in result.stdout]


def test_full_is_the_whole_report() -> None:
    """`--full` prints what `to_markdown` renders, which the case goldens pin."""
    result = run("diagnose", str(EXAMPLE), "--full")
    assert result.returncode == 0, result.stderr
    assert result.stdout == to_markdown(example())
    shown = [part for part in FULL_ONLY if part != SIMILAR or example().similar_cases]
    assert all(part in result.stdout for part in shown)
    assert len(result.stdout.splitlines()) > SCREEN_LINES


def test_json_ignores_full() -> None:
    plain = run("diagnose", str(EXAMPLE), "--format", "json")
    full = run("diagnose", str(EXAMPLE), "--format", "json", "--full")
    assert json.loads(plain.stdout) == json.loads(full.stdout)


def test_short_report_keeps_the_answer() -> None:
    """Diagnosis, every fix's change, the consolidated config, each alternative, the evidence."""
    diagnosis = example()
    short = to_short_markdown(diagnosis)
    top, *others = diagnosis.hypotheses
    assert top.title in short
    for fix in top.fixes:
        assert all(f"`{change.path}`" in short for change in fix.changes)
    assert "### Consolidated Config" in short
    assert all(f"**{other.title}**" in short for other in others)
    locations = [f"`{ref.source}:{ref.line}`" for ref in top.evidence]
    assert locations and all(location in short for location in locations)


def test_short_report_says_what_full_adds() -> None:
    short = to_short_markdown(example())
    added = re.search(r"`--full` adds (.*)\.\*", short)
    assert added is not None
    assert "1 arithmetic table" in added.group(1)
    assert "the mechanism" in added.group(1)


def test_long_consolidated_block_shows_its_changed_lines() -> None:
    """The example's command is 21 lines; the short report shows the ones the fix changes."""
    short = to_short_markdown(example())
    block = short.split("### Consolidated Config", 1)[1].split("```")[1]
    changed = [line for line in block.splitlines()[1:] if line.strip()]
    assert changed and all(
        "per_device_train_batch_size" in line or "gradient_accumulation" in line for line in changed
    )
    assert "`--full` shows the whole block" in short


def _with_command(lines: int) -> str:
    """The short report of the fixture OOM with a consolidated command of `lines` lines."""
    command = ["python train.py \\"] * (lines - 1) + ["    --gradient_checkpointing true"]
    block = ConfigBlock(format="command", text="\n".join(command), source="launch.sh")
    return to_short_markdown(oom_diagnosis().model_copy(update={"consolidated": (block,)}))


def test_block_at_the_limit_is_whole_and_above_it_is_cut() -> None:
    assert _with_command(BLOCK_LINES - 1).count("python train.py") == BLOCK_LINES - 2
    assert _with_command(BLOCK_LINES).count("python train.py") == BLOCK_LINES - 1
    above = _with_command(BLOCK_LINES + 1)
    assert "python train.py" not in above
    assert f"(1 of its {BLOCK_LINES + 1} lines;" in above


def test_quotes_are_clipped_above_the_limit_only() -> None:
    at = "x" * QUOTE_CHARS
    assert f"`{at}`" in to_short_markdown(with_evidence(oom_diagnosis(), [at]))
    above = to_short_markdown(with_evidence(oom_diagnosis(), [at + "y"]))
    assert f"`{'x' * (QUOTE_CHARS - 1)}…`" in above
