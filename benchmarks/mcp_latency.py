"""Latency of `diagnose_failure` through the MCP stdio client, over the real-case set.

Starts `python -m trainwreck mcp --allow tests/cases` once, as an agent would,
then calls diagnose_failure on every case under tests/cases/ (its files as
paths, its symptoms as symptoms) and prints the median and p95 round-trip
latency. The first call (which loads the knowledge base) is reported apart.

Usage: python benchmarks/mcp_latency.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client

from trainwreck.curation.cases import Case, find_cases

CASES = Path(__file__).resolve().parent.parent / "tests" / "cases"


def _arguments(case: Case) -> dict[str, object]:
    arguments: dict[str, object] = {"paths": [str(p.resolve()) for p in case.inputs]}
    if case.symptoms:
        arguments["symptoms"] = case.symptoms
    return arguments


async def _measure(cases: list[Case], repeat: int) -> tuple[float, list[float], int]:
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "trainwreck", "mcp", "--allow", str(CASES)],
        env=dict(os.environ),
    )
    latencies: list[float] = []
    errors = 0
    with open(os.devnull, "w") as quiet:
        async with (
            stdio_client(server, errlog=quiet) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            start = time.perf_counter()
            await session.call_tool("diagnose_failure", _arguments(cases[0]))
            first = time.perf_counter() - start
            for _ in range(repeat):
                for case in cases:
                    start = time.perf_counter()
                    result = await session.call_tool("diagnose_failure", _arguments(case))
                    latencies.append(time.perf_counter() - start)
                    errors += bool(result.is_error)
    return first, latencies, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="passes over the case set")
    options = parser.parse_args()
    cases = find_cases(CASES)
    first, latencies, errors = anyio.run(_measure, cases, options.repeat)
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(f"diagnose_failure over stdio: {len(cases)} real cases x {options.repeat}")
    print(f"  first call (loads the knowledge base): {first * 1000:.0f} ms")
    print(f"  median: {statistics.median(latencies) * 1000:.0f} ms")
    print(f"  p95:    {p95 * 1000:.0f} ms")
    print(f"  max:    {ordered[-1] * 1000:.0f} ms")
    print(f"  tool errors: {errors}")


if __name__ == "__main__":
    main()
