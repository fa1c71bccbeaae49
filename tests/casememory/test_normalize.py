"""The words that identify an error line: what two reports of one bug share."""

from __future__ import annotations

import time

from trainwreck.cases.normalize import words


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
