"""Build the bundled case memory (src/trainwreck/cases/data/bundled.jsonl) from its sources.

Sources, in order (a thread already taken is skipped, so the first wins):
1. tests/cases/*/case.yaml: real failures with the KB page they belong to;
2. benchmarks/first_sight/batch-*/*/case.yaml, once a batch has been measured
   (its first-sight row is in benchmarks/first_sight.md): after that it is
   development data, and before that it must stay out of the store;
3. cases/collected/*.yaml: records collected from public threads with the
   `search` tool by the method in cases/README.md.

For a case folder the evidence lines are the log lines that read like an error
(`trainwreck.cases.query.ERRORISH`), the last MAX_EVIDENCE_LINES of them (the
log's last lines when none does).
A record no collector filed under a page gets the page a reviewer judged to name
its cause: the top answer judged right in a first-sight run
(benchmarks/first_sight/judged), or a page answer judged right in the
leave-one-thread-out benchmark (benchmarks/case_memory/judgements.jsonl); failing
those, the page whose writer wrote it from that record (cases/filed.yaml).
Run `python scripts/build_cases.py` after adding a source; a test fails while
the bundled file is stale.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import yaml

from trainwreck.cases.query import ERRORISH
from trainwreck.cases.records import BUNDLED, CaseRecord, dump_records, is_web, thread_key
from trainwreck.redact import redact

ROOT = Path(__file__).resolve().parent.parent
MEASURED_BATCHES = (
    "batch-1",
    "batch-2",
    "batch-3",
    "batch-4",
    "batch-5",
    "batch-6",
    "batch-7",
    "batch-8",
    "batch-9",
    "batch-10",
    "batch-11",
    "batch-12",
    "batch-13",
    "batch-14",
    "batch-15",
    "batch-16",
    "batch-17",
    "batch-18",
    "batch-19",
    "batch-20",
    "batch-21",
    "batch-22",
    "batch-23",
    "batch-24",
    "batch-25",
    "batch-26",
    "batch-27",
    "batch-28",
    "batch-29",
    "batch-30",
    "batch-31",
    "batch-32",
    "batch-33",
    "batch-34",
    "batch-35",
    "batch-36",
)
JUDGED_RUNS = ROOT / "benchmarks" / "first_sight" / "judged"
LOO_JUDGEMENTS = ROOT / "benchmarks" / "case_memory" / "judgements.jsonl"
FILED_DIR = ROOT / "cases"  # filed*.yaml, one file per writer
CASE_ANSWER = "case:"
MAX_EVIDENCE_LINES = 12
MAX_LINE_CHARS = 300


def _evidence(folder: Path, inputs: list[str]) -> str:
    """The error-like lines of a case's logs; a log with none (a metric log) gives its end."""
    errors: list[str] = []
    every: list[str] = []
    for name in inputs:
        path = folder / name
        if not path.is_file() or path.suffix == ".py":
            continue
        for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
            text = raw.strip()[:MAX_LINE_CHARS]
            if text and text not in every:
                every.append(text)
                if ERRORISH.search(text):
                    errors.append(text)
    chosen = (errors or every)[-MAX_EVIDENCE_LINES:]
    return "\n".join(redact(line) for line in chosen)


def _from_folder(folder: Path, collected: str) -> CaseRecord | None:
    meta = yaml.safe_load((folder / "case.yaml").read_text(encoding="utf-8"))
    inputs = meta.get("inputs") or [
        p.name for p in sorted(folder.iterdir()) if p.name != "case.yaml" and p.stem != "expected"
    ]
    evidence = _evidence(folder, inputs)
    cause = meta.get("confirmed_cause")
    if not evidence or not cause:
        return None
    frameworks = meta.get("frameworks") or []
    source = str(meta["source"])
    if not is_web(source) and "/" not in source:
        source = f"{folder.relative_to(ROOT).as_posix()}/{source}"  # a reproduction's script
    return CaseRecord(
        id=folder.name,
        source=source,
        confirmed_by="reproduction" if meta.get("kind") == "repro" else "thread",
        category=meta["category"],
        frameworks={name: None for name in frameworks},
        symptoms=meta.get("symptoms"),
        evidence=evidence,
        cause=" ".join(cause.split()),
        page=meta.get("top_pattern"),
        collected=collected,
    )


def _from_collection(path: Path) -> Iterator[CaseRecord]:
    for item in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
        yield CaseRecord(
            id=item["id"],
            source=item["source"],
            fix_url=item.get("fix"),
            confirmed_by=item["confirmed_by"],
            category=item["category"],
            frameworks={
                k: (None if v is None else str(v))
                for k, v in (item.get("frameworks") or {}).items()
            },
            hardware=item.get("hardware"),
            symptoms=item.get("symptoms"),
            evidence=redact(item["evidence"].strip()),
            cause=" ".join(item["cause"].split()),
            fix=" ".join(item["fix_text"].split()) if item.get("fix_text") else None,
            page=item.get("page"),
            collected=f"search tool, issues corpus ({path.name})",
        )


def records() -> Iterator[CaseRecord]:
    for folder in sorted((ROOT / "tests" / "cases").iterdir()):
        if (folder / "case.yaml").is_file() and (r := _from_folder(folder, "tests/cases")):
            yield r
    for batch in MEASURED_BATCHES:
        for folder in sorted((ROOT / "benchmarks" / "first_sight" / batch).iterdir()):
            if (folder / "case.yaml").is_file() and (
                record := _from_folder(folder, f"first-sight {batch}")
            ):
                yield record
    for path in sorted((ROOT / "cases" / "collected").glob("*.yaml")):
        yield from _from_collection(path)


def unique(found: Iterator[CaseRecord]) -> list[CaseRecord]:
    """One record per thread and per id; the first source wins."""
    threads: set[str] = set()
    ids: set[str] = set()
    kept = []
    for record in found:
        key = thread_key(record.source)
        if key in threads or record.id in ids:
            continue
        threads.add(key)
        ids.add(record.id)
        kept.append(record)
    return kept


def _first_sight_pages() -> Iterator[tuple[str, str]]:
    """(case, page) where a reviewer judged the run's top answer, a page, right."""
    for judged in sorted(JUDGED_RUNS.glob("*-judgments.yaml")):
        answers = judged.with_name(judged.name.replace("-judgments.yaml", "-answers.json"))
        if not answers.is_file():
            continue
        tops = {
            entry["case"]: entry["hypotheses"][0]["id"]
            for entry in json.loads(answers.read_text(encoding="utf-8"))
            if entry.get("hypotheses")
        }
        for verdict in yaml.safe_load(judged.read_text(encoding="utf-8")) or []:
            top = tops.get(verdict["case"])
            if verdict.get("at1") == "right" and top and not top.startswith(CASE_ANSWER):
                yield verdict["case"], top


def _benchmark_pages() -> Iterator[tuple[str, str]]:
    """(record, page) a leave-one-thread-out reviewer judged to name the record's cause."""
    if not LOO_JUDGEMENTS.is_file():
        return
    for line in LOO_JUDGEMENTS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line) if line.strip() else {}
        if row.get("right") and not str(row["answer"]).startswith(CASE_ANSWER):
            yield row["record"], row["answer"]


def _filed_pages() -> Iterator[tuple[str, str]]:
    """(record, page) filed by the writer of a page that was written from those records."""
    for path in sorted(FILED_DIR.glob("filed*.yaml")):
        for item in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            yield item["record"], item["page"]


def with_judged_pages(
    kept: list[CaseRecord], judged: Iterable[tuple[str, str]]
) -> list[CaseRecord]:
    """Records without a page get the first page a reviewer judged right for them."""
    pages: dict[str, str] = {}
    for record_id, page in judged:
        pages.setdefault(record_id, page)
    return [
        r.model_copy(update={"page": pages[r.id]}) if not r.page and r.id in pages else r
        for r in kept
    ]


def build() -> list[CaseRecord]:
    """The store: one record per thread, each filed under a page where one is known."""
    return with_judged_pages(
        unique(records()), [*_first_sight_pages(), *_benchmark_pages(), *_filed_pages()]
    )


def main() -> int:
    kept = build()
    BUNDLED.parent.mkdir(parents=True, exist_ok=True)
    BUNDLED.write_text("".join(dump_records(kept)), encoding="utf-8")
    print(f"{len(kept)} records -> {BUNDLED.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
