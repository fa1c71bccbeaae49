"""When no knowledge-base page matches, the report is still useful, and honest about it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BROKEN_SCRIPT = """
import json

def load_labels(record):
    return record["labels"]

load_labels(json.loads('{"label": [1, 2]}'))
"""


def test_unknown_failure_is_classified_ungrounded_and_low(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(BROKEN_SCRIPT)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=False)
    log = tmp_path / "train.log"
    log.write_text(run.stderr)
    assert "KeyError" in run.stderr

    result = subprocess.run(
        [sys.executable, "-m", "trainwreck", "diagnose", str(log), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    top = report["hypotheses"][0]
    assert report["grounding"] == "ungrounded"
    assert (top["category"], top["confidence"], top["citations"]) == ("crash", "low", [])
    assert "train.py" in top["mechanism"] and "load_labels" in top["mechanism"]

    markdown = subprocess.run(
        [sys.executable, "-m", "trainwreck", "diagnose", str(log)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    assert "[no KB]" in markdown and "[kb:" not in markdown.split("### Prevention")[0]
