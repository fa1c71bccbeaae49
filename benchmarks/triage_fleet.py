"""Triage a fleet generated from the real cases: do its groups equal the cases' causes?

Each generated run is a copy of one real case's evidence files (tests/cases/*/, the files
its case.yaml lists) with numbers, paths, ranks and timestamps varied: integers of five or
more digits (pids, ports, steps) and hex addresses get other digits of the same length,
`/home/<user>/` another user, the rank ids a file names are permuted, and the files'
modification times spread over 30 days. The truth label of a run is its source case's
expected top hypothesis (expected.json). The fleet is triaged with the process pool,
on Ray when `--engine ray` is given (a local Ray, or the cluster at `--ray-address`;
needs `pip install 'trainwreck[ray]'`), and with one process; printed: the adjusted
Rand index of each against the truth (issue 22 asks >= 0.9), whether each gives the
pool's groups, runs/s of each, and peak RSS.

The fleet is generated from the real cases; the variations are synthetic.

Usage: python benchmarks/triage_fleet.py [--runs N] [--jobs N] [--seed S] [--out DIR]
                                         [--engine ray [--ray-address ADDR]]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from functools import partial
from math import comb
from pathlib import Path

from trainwreck.curation.cases import Case, find_cases
from trainwreck.triage import Engine, RunSummary, default_jobs, summaries
from trainwreck.triage.discover import runs as discover_runs
from trainwreck.triage.group import fold

try:  # Ray is an optional extra: pip install 'trainwreck[ray]'
    from trainwreck.triage import ray_engine
except ModuleNotFoundError as missing:
    if missing.name != "ray":
        raise
    ray_engine = None

CASES = Path(__file__).resolve().parent.parent / "tests" / "cases"
# The acceptance sizes are 2,000 and 10,000; 200 runs take about a minute here.
DEFAULT_RUNS = 200
# Modification times spread over this many days, so first/last seen differ per group.
SPREAD_SECONDS = 30 * 24 * 3600
LONG_NUMBER = re.compile(r"(?<![\w.])\d{5,}(?![\w.])")
HEX_ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")
HOME = re.compile(r"/home/[A-Za-z0-9_.-]+/")
RANK = re.compile(r"(\[rank|\[default|rank )(\d+)")


def _truth(case: Case) -> str | None:
    """The source case's expected top hypothesis id (None when it has none)."""
    expected = json.loads((case.path / "expected.json").read_text(encoding="utf-8"))
    return expected["hypotheses"][0]["id"] if expected.get("hypotheses") else None


def _vary(text: str, rng: random.Random) -> str:
    """Other numbers, paths and rank ids; the wording of every error stays as it was."""
    text = LONG_NUMBER.sub(
        lambda m: str(rng.randrange(10 ** (len(m[0]) - 1), 10 ** len(m[0]))), text
    )
    text = HEX_ADDRESS.sub(
        lambda m: "0x" + "".join(rng.choice("0123456789abcdef") for _ in m[0][2:]), text
    )
    text = HOME.sub(f"/home/user{rng.randrange(1000)}/", text)
    ranks = sorted({int(m[2]) for m in RANK.finditer(text)})
    shuffled = rng.sample(ranks, len(ranks))
    mapping = dict(zip(ranks, shuffled, strict=True))
    return RANK.sub(lambda m: f"{m[1]}{mapping[int(m[2])]}", text)


def generate(root: Path, count: int, seed: int) -> dict[str, str]:
    """Write `count` run folders under `root`; return each run's truth label."""
    rng = random.Random(seed)
    cases = [(case, label) for case in find_cases(CASES) if (label := _truth(case))]
    now = time.time()
    truth: dict[str, str] = {}
    for index in range(count):
        case, label = cases[index % len(cases)]
        run = root / f"team{index % 7}" / f"job-{index:06d}"
        run.mkdir(parents=True)
        stamp = now - rng.uniform(0, SPREAD_SECONDS)
        for source in case.inputs:
            target = run / source.name
            text = source.read_text(encoding="utf-8", errors="replace")
            target.write_text(_vary(text, rng), encoding="utf-8")
            os.utime(target, (stamp, stamp))
        truth[str(run)] = label
    return truth


def adjusted_rand_index(truth: list[str], found: list[str]) -> float:
    """Hubert and Arabie's ARI from the contingency table of two labelings."""
    pairs = sum(comb(n, 2) for n in Counter(zip(truth, found, strict=True)).values())
    rows = sum(comb(n, 2) for n in Counter(truth).values())
    cols = sum(comb(n, 2) for n in Counter(found).values())
    expected = rows * cols / comb(len(truth), 2)
    best = (rows + cols) / 2
    return 1.0 if best == expected else (pairs - expected) / (best - expected)


def _triage(root: Path, engine: Engine) -> tuple[dict[str, str], list[str], float]:
    """Each run's group id (unreadable runs: `failed`), the groups' ids, and seconds taken."""
    labels: dict[str, str] = {}

    def record(stream: Iterator[RunSummary]) -> Iterator[RunSummary]:
        for summary in stream:
            labels[summary.run] = summary.cause_id if summary.error is None else "failed"
            yield summary

    start = time.perf_counter()
    result = fold(record(engine(discover_runs([str(root)]))))
    return labels, [g.id for g in result.groups], time.perf_counter() - start


def _peak_mb() -> tuple[float, float]:
    """Peak RSS of this process and of its largest child, in MB (Linux reports KiB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return own / 1024, child / 1024


def _engines(args: argparse.Namespace) -> list[tuple[str, Engine, AbstractContextManager[None]]]:
    """(name, engine, what keeps it up while timed): the pool, Ray if asked for, one process.

    Ray is connected before its clock starts, so its runs/s leave out starting a cluster.
    """
    engines: list[tuple[str, Engine, AbstractContextManager[None]]] = [
        (f"pool jobs={args.jobs}", partial(summaries, jobs=args.jobs), nullcontext())
    ]
    if args.engine == "ray":
        if ray_engine is None:
            raise SystemExit("--engine ray needs Ray: pip install 'trainwreck[ray]'")
        engines.append(("ray", ray_engine.ray_summaries, ray_engine.cluster(args.ray_address)))
    engines.append(("one process", partial(summaries, jobs=1), nullcontext()))
    return engines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="Where to write the fleet (default: a temporary folder).")
    parser.add_argument("--engine", choices=("pool", "ray"), default="pool")
    parser.add_argument("--ray-address", help="With --engine ray: the cluster to join.")
    args = parser.parse_args()
    root = Path(args.out or tempfile.mkdtemp(prefix="trainwreck-fleet-"))
    truth = generate(root, args.runs, args.seed)
    print(
        f"{args.runs} runs generated from the real cases under {root} "
        f"({len(set(truth.values()))} distinct causes); numbers, paths, ranks, mtimes varied"
    )
    results = {}
    for name, engine, connected in _engines(args):
        with connected:
            labels, groups, seconds = _triage(root, engine)
        order = sorted(truth)
        ari = adjusted_rand_index([truth[r] for r in order], [labels[r] for r in order])
        exact = sum(truth[r] == labels[r] for r in order) / len(order)
        own, child = _peak_mb()
        print(
            f"{name}: {len(groups)} groups, ARI {ari:.4f}, same id as truth {exact:.1%}, "
            f"{args.runs / seconds:.1f} runs/s ({seconds:.1f} s), "
            f"peak RSS self {own:.0f} MB, largest child {child:.0f} MB"
        )
        results[name] = labels
    pooled = results.pop(f"pool jobs={args.jobs}")
    for name, labels in results.items():
        print(f"{name} gives the pool's groups: {labels == pooled}")
    if not args.out:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()
