"""The words that identify an error line: what two reports of one bug share."""

from __future__ import annotations

import time
from pathlib import Path

from trainwreck.cases.normalize import words
from trainwreck.curation.cases import diagnose_folder

FIRST_SIGHT = Path(__file__).parents[2] / "benchmarks" / "first_sight"


def test_numbers_paths_and_addresses_are_dropped_names_kept() -> None:
    one = words(
        '  File "/home/alice/venv/lib/python3.10/site-packages/peft/tuners/lora.py", line 185,'
        " in _find_and_replace"
    )
    two = words(
        '  File "C:\\Users\\bob\\envs\\x\\Lib\\site-packages\\peft\\tuners\\lora.py", line 201,'
        " in _find_and_replace"
    )
    assert one == two == {"lora", "find_and_replace"}


def test_sizes_and_hex_addresses_vary_the_words_do_not() -> None:
    a = words("CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total) at 0x7f3a")
    b = words("CUDA out of memory. Tried to allocate 388.00 MiB (GPU 3; 31.75 GiB total) at 0xdead")
    assert a - {"mib"} == b - {"mib"}
    assert "0x7f3a" not in a and "7f3a" not in a


def test_identifiers_with_digits_and_underscores_survive() -> None:
    assert {"sm_121", "bf16", "use_multi_rank_bucket_allreduce"} <= words(
        "sm_121 bf16 use_multi_rank_bucket_allreduce"
    )


def test_a_long_run_without_a_slash_is_read_in_linear_time() -> None:
    """Found by fuzzing MCP over stdio: search_knowledge on a 54k-character query took
    15 s (the directory pattern was retried at every character of a run). 200k characters,
    the query limit, used to take minutes."""
    started = time.perf_counter()
    assert words("x" * 200_000 + " CUDA") == {"x" * 200_000, "cuda"}
    assert time.perf_counter() - started < 2
    assert words(r"at C:\Users\me\train.py, /opt/x/yy.py") == {"train", "yy"}


def test_torchruns_failed_worker_summary_identifies_nothing() -> None:
    """batch-9 r2-pytorch-torchrun-fails-at-start-repro: a DataLoader refusing shuffle with
    a DistributedSampler recalled an fp16-NaN record (similarity 0.64) on the summary line
    torchrun prints for any failed worker; what is left of that line names no failure."""
    summary = (
        "E1030 11:42:16.325000 140014536193856 torch/distributed/elastic/multiprocessing/"
        "api.py:833] failed (exitcode: 1) local_rank: 0 (pid: 155690) of binary: "
        "/data/envs/vae/bin/python3.10"
    )
    assert not words(summary) & {"exitcode", "local_rank", "binary", "pid"}
    folder = FIRST_SIGHT / "batch-9" / "r2-pytorch-torchrun-fails-at-start-repro"
    diagnosis = diagnose_folder(folder)
    assert "mar-fp16-autocast-nan-69" not in {case.id for case in diagnosis.similar_cases}
