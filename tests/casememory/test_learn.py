"""`trainwreck learn` and the team's store: round trip, concurrent writers, no secrets.

The learned failure is the real log of tests/cases/peft-target-modules-internvl-150; the
"next run" is the same log with other module names, numbers and paths.
"""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from trainwreck.cases.local import add, read
from trainwreck.cases.records import CaseRecord
from trainwreck.cli.app import cli

LOG = (
    Path(__file__).resolve().parents[1] / "cases" / "peft-target-modules-internvl-150" / "train.log"
)
CAUSE = "InternLM2 names its fused attention projection wqkv, so Llama target names match nothing"
TOKEN = "hf_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM"  # a made-up token of the real shape


def run(args: list[str], store: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, args, env={"TRAINWRECK_CASES": str(store)})
    return result.exit_code, result.stdout, result.stderr


def test_a_learned_failure_is_found_for_a_new_log_of_the_same_failure(tmp_path: Path) -> None:
    store = tmp_path / "team.sqlite"
    code, _, said = run(["learn", str(LOG), "--cause", CAUSE, "--fix", "target wqkv"], store)
    assert code == 0, said
    text = LOG.read_text(encoding="utf-8")
    again = tmp_path / "run-0412" / "train.log"
    again.parent.mkdir()
    again.write_text(
        text.replace("self_attn.q_proj", "attention.query").replace("/home/", "/scratch/x/"),
        "utf-8",
    )
    code, out, said = run(["diagnose", str(again), "--format", "json"], store)
    assert code == 0, said
    local = [c for c in json.loads(out)["similar_cases"] if c["store"] == "local"]
    assert local and local[0]["cause"] == CAUSE


def test_secrets_in_a_learned_log_and_cause_do_not_reach_the_store(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(
        LOG.read_text(encoding="utf-8") + f"\nError: login failed with HF_TOKEN={TOKEN}\n"
    )
    store = tmp_path / "team.sqlite"
    code, _, said = run(["learn", str(log), "--cause", f"{CAUSE}; token {TOKEN}"], store)
    assert code == 0, said
    raw = "\n".join(row[0] for row in sqlite3.connect(store).execute("SELECT record FROM records"))
    assert TOKEN not in raw
    assert "<redacted" in raw


def _writer(store: str, prefix: str, count: int) -> None:
    base = CaseRecord.model_validate(
        {
            "id": "x",
            "source": "INC-1",
            "confirmed_by": "team",
            "category": "hang",
            "evidence": "Watchdog caught collective operation timeout\nWorkNCCL ran for 1800000 ms",
            "cause": "a rank skipped the barrier",
            "collected": "test",
        }
    )
    for number in range(count):
        add(Path(store), [base.model_copy(update={"id": f"{prefix}-{number}"})])


def test_two_processes_writing_one_shared_store_lose_nothing(tmp_path: Path) -> None:
    store = tmp_path / "shared.sqlite"
    context = multiprocessing.get_context("spawn")
    writers = [context.Process(target=_writer, args=(str(store), p, 40)) for p in ("a", "b")]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=120)
        assert writer.exitcode == 0
    assert len(read(store)) == 80


def test_export_import_stats_round_trip(tmp_path: Path) -> None:
    first, second = tmp_path / "one.sqlite", tmp_path / "two.sqlite"
    assert run(["learn", str(LOG), "--cause", CAUSE, "-c", "config_error"], first)[0] == 0
    exported = tmp_path / "team.jsonl"
    assert run(["cases", "export", str(exported)], first)[0] == 0
    assert run(["cases", "import", str(exported)], second)[0] == 0
    code, out, _ = run(["cases", "stats", "--format", "json"], second)
    stats = json.loads(out)
    assert code == 0
    assert stats["local"]["total"] == 1 and stats["local"]["by_class"] == {"config_error": 1}
    assert stats["bundled"]["total"] >= 400


@pytest.mark.parametrize("content", ["{not json\n", '{"id": "x"}\n'])
def test_a_bad_import_file_is_one_line_and_status_2(
    tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content, encoding="utf-8")
    from trainwreck.cli.app import main

    with pytest.raises(SystemExit) as exit_info:
        main(["cases", "import", str(bad), "--store", str(tmp_path / "s.sqlite")])
    assert exit_info.value.code == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith("trainwreck: error:")


def test_importing_a_fifo_is_refused_without_blocking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    from trainwreck.cli.app import main

    fifo = tmp_path / "team.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(SystemExit) as exit_info:
        main(["cases", "import", str(fifo), "--store", str(tmp_path / "s.sqlite")])
    assert exit_info.value.code == 2
    assert "FIFO" in capsys.readouterr().err
