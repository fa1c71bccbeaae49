"""The 20 crash signatures a fuzzing pass found (issue 16), each as a regression test.

Each input is written for real and given to the real CLI (in-process, through
`main`, so the exit status and stderr are what a user sees). Every one must end
in exit status 0 (diagnosed, with a warning), 2 (one line saying why) or, for
`check` and `env`, 1 (errors found in the config), never in a traceback or 3.
"""

from __future__ import annotations

import gzip
import lzma
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import run_in_process

BIG_INT = "9" * 400
QLORA_RECIPE = (
    Path(__file__).parent
    / "verify/configs/alignment-handbook--zephyr-7b-beta_dpo_config_qlora.yaml"
)
ERROR_LINES = b"".join(
    b"step %d RuntimeError: CUDA error: device-side assert\n" % n for n in range(2000)
)


def _jsonl(steps: list[str], losses: list[str]) -> str:
    return "".join(f'{{"step": {s}, "loss": {v}}}\n' for s, v in zip(steps, losses, strict=True))


def _corrupt(data: bytes, at: int) -> bytes:
    damaged = bytearray(data)
    damaged[at] ^= 0xFF
    return bytes(damaged)


def _mlflow_db(path: Path) -> None:
    """An MLflow SQLite store whose text columns hold invalid UTF-8 (a corrupted page)."""
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE runs(run_uuid TEXT, name TEXT);"
        "CREATE TABLE metrics(run_uuid TEXT, key TEXT, step INT, value REAL, is_nan INT,"
        " timestamp INT);"
        "CREATE TABLE params(run_uuid TEXT, key TEXT, value TEXT);"
        "INSERT INTO runs VALUES ('r1', CAST(X'FFFE41' AS TEXT));"
        "INSERT INTO params VALUES ('r1', 'lr', CAST(X'FF' AS TEXT));"
    )
    for step in range(10):
        connection.execute(
            "INSERT INTO metrics VALUES ('r1', CAST(X'6C6FFF' AS TEXT), ?, 1.0, 0, ?)",
            (step, 1000 * step),
        )
    connection.commit()
    connection.close()


# (file name, its content) for each signature's input
INPUTS: dict[str, tuple[str, Callable[[], bytes | str]]] = {
    "bigint-metric": ("metrics.jsonl", lambda: _jsonl(["1", "2", "3"], [BIG_INT] * 3)),
    "bigint-step": ("metrics.jsonl", lambda: _jsonl([BIG_INT] * 3, ["1.0", "2.0", "3.0"])),
    "bigint-oom": (
        "train.log",
        lambda: (
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
            f"{BIG_INT} GiB. GPU 0 has a total capacity of {BIG_INT} GiB of which "
            f"{BIG_INT} MiB is free.\n"
        ),
    ),
    "step-infinity": ("metrics.jsonl", lambda: _jsonl(["Infinity"] * 3, ["1", "2", "3"])),
    "step-1e300": ("metrics.jsonl", lambda: _jsonl(["1e300"] * 3, ["1", "2", "3"])),
    "step-nan": ("metrics.jsonl", lambda: _jsonl(["NaN"] * 3, ["1", "2", "3"])),
    "loss-1e308": (
        "metrics.jsonl",
        lambda: _jsonl([str(n) for n in range(1, 21)], ["1e308", "-1e308"] * 10),
    ),
    "version-5000-digits": ("env.txt", lambda: "torch==2." + "1" * 5000 + "\nnumpy==1.26.4\n"),
    "csv-200k-field": ("metrics.csv", lambda: "step,loss\n1," + "x" * 200_000 + "\n2,1.0\n"),
    "gzip-zlib-error": ("train.log.gz", lambda: _corrupt(gzip.compress(ERROR_LINES), 10)),
    "xz-lzma-error": (
        "train.log.xz",
        lambda: _corrupt(lzma.compress(ERROR_LINES), len(lzma.compress(ERROR_LINES)) // 2),
    ),
    "json-980-deep": ("cfg.json", lambda: '{"a":' * 980 + "1" + "}" * 980),
    "yaml-recursive-alias": ("cfg.yaml", lambda: "a: &x {b: *x}\n"),
    "toml-deep": ("cfg.toml", lambda: "a = " + "[" * 980 + "]" * 980 + "\n"),
    # found by benchmarks/fuzz.py after the 20 above were fixed
    "json-5000-digit-int": ("cfg.json", lambda: '{"learning_rate": 1' + "0" * 5000 + "}"),
    "yaml-5000-digit-int": ("cfg.yaml", lambda: "learning_rate: 1" + "0" * 5000 + "\n"),
    "vllm-bigint-fix": (
        "train.log",
        lambda: (
            f"ValueError: The model's max seq len ({BIG_INT}) is larger than the maximum "
            "number of tokens that can be stored in KV cache (16816). Try increasing "
            "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\n"
        ),
    ),
    "oom-digit-run": (
        "train.log",
        lambda: (
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 388.00 MiB "
            f"(GPU 3; {'1' * 5000} free; 2.00 GiB total capacity)\n"
        ),
    ),
    "model-name-past-path-max": (  # a real DPO + QLoRA recipe, its model name 5,000 long
        "dpo.yaml",
        lambda: re.sub(
            r"(?m)^model_name_or_path: .*$",
            f"model_name_or_path: org/{'x' * 5000}",
            (QLORA_RECIPE).read_text(encoding="utf-8"),
        ),
    ),
    "labels-near-miss": (
        "train.log",
        lambda: (
            "{'input_ids': [31, 32, 0, 0], 'labels': [31, 32, " + "0, " * 200 + "\xff\xfe cpu\n"
        ),
    ),
}

# (signature, command line; {} is the input's path, "-" reads it on stdin)
RUNS = [
    ("bigint-metric", ["diagnose", "{}"]),
    ("bigint-metric", ["curves", "{}"]),
    ("bigint-step", ["curves", "{}"]),
    ("bigint-oom", ["diagnose", "{}"]),
    ("step-infinity", ["curves", "{}"]),
    ("step-1e300", ["diagnose", "{}"]),
    ("step-nan", ["curves", "{}"]),
    ("loss-1e308", ["diagnose", "{}", "--format", "html"]),
    ("loss-1e308", ["curves", "{}", "--plot", "{dir}/plot.svg"]),
    ("version-5000-digits", ["env", "--from", "{}"]),
    ("version-5000-digits", ["env", "--from", "-"]),
    ("version-5000-digits", ["diagnose", "--env", "{}", "--symptoms", "crash"]),
    ("csv-200k-field", ["diagnose", "{}"]),
    ("csv-200k-field", ["curves", "{}"]),
    ("gzip-zlib-error", ["diagnose", "{}"]),
    ("gzip-zlib-error", ["diagnose", "-"]),
    ("xz-lzma-error", ["diagnose", "{}"]),
    ("xz-lzma-error", ["diagnose", "-"]),
    ("json-980-deep", ["check", "{}"]),
    ("json-980-deep", ["diagnose", "--config", "{}", "--symptoms", "oom"]),
    ("yaml-recursive-alias", ["check", "{}"]),
    ("yaml-recursive-alias", ["diagnose", "{dir}"]),
    ("toml-deep", ["check", "{}"]),
    ("mlflow-db-bad-utf8", ["diagnose", "{}"]),
    ("mlflow-db-bad-utf8", ["curves", "{}"]),
    ("json-5000-digit-int", ["check", "{}"]),
    ("yaml-5000-digit-int", ["check", "{}"]),
    ("vllm-bigint-fix", ["diagnose", "-"]),
    ("labels-near-miss", ["diagnose", "{}"]),
    ("oom-digit-run", ["diagnose", "{}"]),
    ("model-name-past-path-max", ["check", "--no-live", "{}"]),
]


def _write(tmp_path: Path, signature: str) -> Path:
    if signature == "mlflow-db-bad-utf8":
        path = tmp_path / "mlflow.db"
        _mlflow_db(path)
        return path
    name, content = INPUTS[signature]
    path = tmp_path / name
    data = content()
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


@pytest.mark.parametrize(("signature", "command"), RUNS, ids=[f"{s}-{c[0]}" for s, c in RUNS])
def test_no_crash_signature_reaches_the_user(
    tmp_path: Path, signature: str, command: list[str]
) -> None:
    path = _write(tmp_path, signature)
    args = [part.replace("{dir}", str(tmp_path)).replace("{}", str(path)) for part in command]
    status, stderr = run_in_process(args, stdin=path.read_bytes() if "-" in args else b"")
    found_errors = (1,) if args[0] in ("check", "env") else ()  # their "errors found" status
    assert status in (0, 2, *found_errors), stderr
    assert "Traceback" not in stderr and "Warning" not in stderr, stderr
    if status == 2:
        assert len(stderr.strip().splitlines()) == 1, stderr
        assert stderr.startswith("trainwreck: error: ")


def test_limits_are_named_in_the_answer(tmp_path: Path) -> None:
    """A refused input says which limit, not just that it failed."""
    status, stderr = run_in_process(["check", str(_write(tmp_path, "yaml-recursive-alias"))])
    assert status == 2
    assert "nested deeper than" in stderr


def test_a_back_reference_widens_to_its_group_not_to_any_text() -> None:
    """`(?P=id)` inside a repeated group, widened to `.+?`, backtracked exponentially
    on a near-miss line (over 60 s for one short log line, found by the fuzzer)."""
    from trainwreck.kb import _without_backreferences

    regex = r"\[(?P<pad>\d+)(?:,\s*(?P=pad)\b){5,}\]"
    assert _without_backreferences(regex) == r"\[(?P<pad>\d+)(?:,\s*(?:\d+)\b){5,}\]"


def test_a_numbered_back_reference_widens_to_its_own_group() -> None:
    """Joined into the log reader's one keep regex, `\\1` named the first group of another
    page's signature, so a manual SGD line (`w = w - lr * w.grad`) was kept by the literal
    automaton but not by the joined regex (tests/evidence/test_evidence_matcher.py)."""
    from trainwreck.kb import _without_backreferences

    regex = r"\b(\w+)\s*=\s*\1\s*-\s*lr\s*\*\s*\1\.grad"
    assert _without_backreferences(regex) == r"\b(\w+)\s*=\s*(?:\w+)\s*-\s*lr\s*\*\s*(?:\w+)\.grad"
    assert _without_backreferences(r"(a)(?P<x>b)\2\1") == r"(a)(?P<x>b)(?:b)(?:a)"


def test_symlink_loops_in_a_run_directory_are_warnings_and_the_log_is_still_read(
    tmp_path: Path,
) -> None:
    """A link to itself and a link back to the run directory: no hang, no traceback."""
    from trainwreck.pipeline import diagnose

    run = tmp_path / "run"
    (run / "sub").mkdir(parents=True)
    example = Path(__file__).resolve().parents[1] / "examples" / "llama-lora-oom" / "train.log"
    (run / "train.log").write_bytes(example.read_bytes())
    (run / "self").symlink_to("self")
    (run / "sub" / "back").symlink_to("..")
    found = diagnose([str(run)])
    assert [Path(f.path).name for f in found.inputs] == ["train.log"]
    assert any("self" in warning for warning in found.warnings)
    assert found.hypotheses and found.hypotheses[0].category == "oom"


def test_a_file_name_with_an_undecodable_byte_is_diagnosed(tmp_path: Path) -> None:
    """Found by the MCP fuzzing pass: a lone surrogate (here os.fsdecode's for byte 0xff)
    crashed the redaction pass with UnicodeEncodeError, exit status 3."""
    log = Path(str(tmp_path) + "/train\udcff.log")
    log.write_bytes(ERROR_LINES)
    status, stderr = run_in_process(["diagnose", str(tmp_path), "--format", "json"])
    assert status == 0 and "internal error" not in stderr, stderr
