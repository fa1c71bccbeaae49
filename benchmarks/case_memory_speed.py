"""Case memory at scale: index build, retrieval latency and store size at 10,000 records.

The 10,000 records are generated from the real bundled ones by varying their
numbers and paths (each copy's digits shifted and its directories renamed), so
their words and rarity look like a real store ten to twenty times larger; they
are stated as generated, never bundled. Retrieval is timed in-process on the
evidence of real case folders, side by side with the bundled store, and the
figures are printed, not asserted.

    python benchmarks/case_memory_speed.py [--records 10000] [--queries 50]
"""

from __future__ import annotations

import argparse
import gzip
import re
import statistics
import time
from pathlib import Path

from trainwreck import context
from trainwreck.cases.index import CaseIndex
from trainwreck.cases.match import CaseMemory, bundled_records, similar
from trainwreck.cases.records import CaseRecord, dump_records
from trainwreck.evidence.collect import collect

ROOT = Path(__file__).resolve().parent.parent
_DIGIT = re.compile(r"\d")
_DIRECTORY = re.compile(r"/(\w+)/")


def varied(record: CaseRecord, copy: int) -> CaseRecord:
    """A copy of a real record with other numbers and paths (same words otherwise)."""

    def vary(text: str) -> str:
        text = _DIGIT.sub(lambda m: str((int(m.group()) + copy) % 10), text)
        return _DIRECTORY.sub(lambda m: f"/{m.group(1)}{copy}/", text)

    return record.model_copy(
        update={
            "id": f"{record.id}-gen{copy}",
            "source": f"{record.source}#gen{copy}",
            "evidence": vary(record.evidence),
        }
    )


def generated(count: int) -> list[CaseRecord]:
    real = list(bundled_records())
    return [varied(real[i % len(real)], i // len(real)) for i in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=50)
    args = parser.parse_args()
    folders = sorted(p.parent for p in (ROOT / "tests" / "cases").glob("*/case.yaml"))
    runs = []
    for folder in folders[: args.queries]:
        inputs = [
            str(p)
            for p in folder.iterdir()
            if p.name not in {"case.yaml"} and "expected" not in p.name
        ]
        evidence = collect(inputs)
        runs.append((evidence, context.build(evidence)))
    for label, records in (
        ("bundled", list(bundled_records())),
        ("generated", generated(args.records)),
    ):
        start = time.perf_counter()
        memory = CaseMemory(CaseIndex([("bundled", records)]))
        build = time.perf_counter() - start
        times = []
        for evidence, run_context in runs:
            start = time.perf_counter()
            similar(memory, evidence, run_context)
            times.append(time.perf_counter() - start)
        jsonl = "".join(dump_records(records)).encode()
        packed = len(gzip.compress(jsonl))
        print(
            f"{label:9} {len(records):6} records  index build {build * 1000:7.1f} ms  "
            f"retrieval median {statistics.median(times) * 1000:6.2f} ms  "
            f"p95 {sorted(times)[int(0.95 * (len(times) - 1))] * 1000:6.2f} ms  "
            f"store {len(jsonl) / 1e6:5.2f} MB jsonl, {packed / 1e6:5.2f} MB gzip"
        )


if __name__ == "__main__":
    main()
