"""Mutation fuzzer: real inputs from tests/, mutated, through the real CLI in-process.

Seeds are the project's own real files (case logs, configs, trainer_state.json,
JSONL/CSV histories, environment listings), each also gzipped and xz-compressed.
Mutations: bit flips, truncation, duplication, huge and non-finite numbers, deep
nesting, random bytes. Each input runs through `main` (diagnose, check, env,
curves, stdin) in a worker process, with TRAINWRECK_DEBUG=1 so that a bug raises
instead of becoming exit status 3, and an alarm at MAX_SECONDS.

Prints inputs tried, crashes (exception type and innermost trainwreck frame),
runs over MAX_SECONDS, peak RSS of any worker, and wall time. Acceptance (issue
16): >= 10,000 inputs, 0 crashes, 0 runs over 20 s, peak RSS <= 1 GB.

    python benchmarks/fuzz.py --count 10000 --jobs 4
"""

from __future__ import annotations

import argparse
import functools
import gzip
import lzma
import multiprocessing
import os
import random
import resource
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_SECONDS = 20
BATCH = 100  # inputs per task handed to a worker
MAX_SEED_BYTES = 256 * 1024  # larger seeds are cut: the mutations, not the size, find bugs
SUFFIXES = (".log", ".txt", ".yaml", ".yml", ".json", ".toml", ".jsonl", ".csv", ".out")
HUGE = ("9" * 400, "1e308", "-1e308", "1e300", "NaN", "Infinity", "-Infinity", "1" * 5000)


class Overtime(BaseException):
    """The alarm rang: one input ran past MAX_SECONDS (no reader may swallow it)."""


def seeds() -> list[tuple[str, bytes]]:
    """(file name, bytes) of every small real input under tests/."""
    found = []
    for path in sorted((ROOT / "tests").rglob("*")):
        if path.is_file() and path.suffix in SUFFIXES and "expected" not in path.name:
            found.append((path.name, path.read_bytes()[:MAX_SEED_BYTES]))
    return found


@functools.cache
def _corpus() -> list[tuple[str, bytes]]:
    """The seeds, read once per worker process."""
    return seeds()


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three mutations of one kind or another."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(7)
        at = rng.randrange(len(data) + 1)
        if kind == 0 and data:  # bit flips
            flipped = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
            data = bytes(flipped)
        elif kind == 1:  # truncation
            data = data[:at]
        elif kind == 2:  # duplication of a slice
            end = min(len(data), at + rng.randint(1, 4096))
            data = data[:end] + data[at:end] * rng.randint(2, 50) + data[end:]
        elif kind == 3:  # a huge or non-finite number where a number was
            digits = [i for i in range(len(data)) if 48 <= data[i] <= 57]
            where = rng.choice(digits) if digits else at
            data = data[:where] + rng.choice(HUGE).encode() + data[where + 1 :]
        elif kind == 4:  # deep nesting
            depth = rng.choice((100, 980, 5000))
            opener, closer = rng.choice(((b"[", b"]"), (b'{"a":', b"}"), (b"- ", b"")))
            data = data[:at] + opener * depth + b"1" + closer * depth + data[at:]
        elif kind == 5:  # random bytes
            data = data[:at] + os.urandom(rng.randint(1, 64)) + data[at:]
        else:  # a recursive YAML alias or a line past the CSV field limit
            extra = rng.choice((b"\na: &x {b: *x}\n", b"\nstep,loss\n1," + b"x" * 200_000 + b"\n"))
            data = data[:at] + extra + data[at:]
    return data


def pack(data: bytes, name: str, rng: random.Random) -> tuple[bytes, str]:
    """Sometimes gzip or xz the input (and maybe damage the packed bytes)."""
    choice = rng.randrange(6)
    if choice == 0:
        data, name = gzip.compress(data), name + ".gz"
    elif choice == 1:
        data, name = lzma.compress(data), name + ".xz"
    else:
        return data, name
    if rng.random() < 0.5 and len(data) > 20:
        damaged = bytearray(data)
        damaged[rng.randrange(10, len(damaged))] ^= 0xFF
        data = bytes(damaged)
    return data, name


def commands(path: Path, name: str) -> list[tuple[list[str], bytes]]:
    """The CLI runs one input gets, by what its name says it is."""
    plain = name.removesuffix(".gz").removesuffix(".xz")
    if plain.endswith((".yaml", ".yml", ".toml", ".json")) and "trainer_state" not in plain:
        return [(["check", "--no-live", str(path)], b""), (["diagnose", str(path)], b"")]
    if plain.endswith((".jsonl", ".csv")) or "trainer_state" in plain:
        return [(["curves", str(path)], b""), (["diagnose", "-f", "html", str(path)], b"")]
    if plain.startswith(("requirements", "env", "pip", "conda", "collect_env")):
        return [(["env", "--from", str(path)], b""), (["diagnose", "--env", str(path)], b"")]
    return [(["diagnose", str(path)], b""), (["diagnose", "-"], path.read_bytes())]


def _on_alarm(signum: int, frame: object) -> None:
    raise Overtime


def _frame(error: BaseException) -> str:
    """The innermost frame inside trainwreck, where the exception escaped our code."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "trainwreck" in f.filename]
    last = frames[-1] if frames else traceback.extract_tb(error.__traceback__)[-1]
    return f"{Path(last.filename).name}:{last.lineno} {last.name}"


def run_one(args: list[str], stdin: bytes) -> tuple[str, str]:
    """('ok' | 'crash' | 'overtime', detail) of one CLI run in this process."""
    from click.testing import CliRunner

    from trainwreck.cli import main

    signal.alarm(MAX_SECONDS)
    try:
        with CliRunner().isolation(input=stdin):
            main(args)
    except SystemExit as exit_:
        if exit_.code not in (0, 1, 2, None):
            return "crash", f"exit status {exit_.code}"
    except Overtime:
        return "overtime", " ".join(args[:1])
    except Exception as error:
        return "crash", f"{type(error).__name__} at {_frame(error)}"
    finally:
        signal.alarm(0)
    return "ok", ""


Result = tuple[Counter[str], list[str], int]


def worker(job: tuple[int, int, int]) -> Result:
    """Fuzz `count` inputs from seed `seed`: (outcomes, crash details, peak RSS in KiB)."""
    first, count, seed = job
    os.environ["TRAINWRECK_DEBUG"] = "1"  # a bug raises here instead of exiting 3
    signal.signal(signal.SIGALRM, _on_alarm)
    rng = random.Random(seed)
    corpus = _corpus()
    outcomes: Counter[str] = Counter()
    crashes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="trainwreck-fuzz-") as folder:
        for index in range(first, first + count):
            name, data = rng.choice(corpus)
            data, name = pack(mutate(data, rng), name, rng)
            path = Path(folder) / name
            path.write_bytes(data)
            args, stdin = rng.choice(commands(path, name))
            outcome, detail = run_one(args, stdin)
            outcomes[outcome] += 1
            if outcome != "ok":
                crashes.append(f"{outcome}: {detail} [input {index}: {name}, {' '.join(args)}]")
            path.unlink()
    return outcomes, crashes, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def report(results: list[Result], wall: float, jobs: int) -> None:
    """The figures the acceptance names, and each crash signature with one example."""
    outcomes: Counter[str] = sum((r[0] for r in results), Counter())
    details = [line for r in results for line in r[1]]
    signatures = Counter(line.split(" [input", 1)[0] for line in details)
    print(f"inputs tried:    {sum(outcomes.values()):,}")
    distinct = sum(1 for signature in signatures if signature.startswith("crash"))
    print(f"crashes:         {outcomes['crash']} ({distinct} distinct)")
    print(f"runs over {MAX_SECONDS} s:  {outcomes['overtime']}")
    print(f"peak RSS:        {max((r[2] for r in results), default=0) / 1024:.0f} MiB (worker)")
    print(f"wall time:       {wall:.0f} s with {jobs} workers")
    for signature, times in signatures.most_common():
        example = next(line for line in details if line.startswith(signature))
        print(f"  {times:5d}x {signature}\n         e.g. {example.split(' [', 1)[1].rstrip(']')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="inputs to try")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=16)
    options = parser.parse_args()
    sys.path.insert(0, str(ROOT / "src"))
    batches = [
        (first, min(BATCH, options.count - first), options.seed * 1_000_000 + first)
        for first in range(0, options.count, BATCH)
    ]
    started = time.perf_counter()
    results: list[Result] = []
    try:  # batches report as they finish, so an interrupted run still gives its figures
        with multiprocessing.get_context("fork").Pool(options.jobs) as pool:
            for result in pool.imap_unordered(worker, batches):
                results.append(result)
                done = sum(sum(r[0].values()) for r in results)
                print(f"{done:,} inputs, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    except KeyboardInterrupt:
        print("interrupted: the figures cover the finished batches", file=sys.stderr)
    report(results, time.perf_counter() - started, options.jobs)


if __name__ == "__main__":
    main()
