"""Leave one thread out: does the case memory name the cause of a failure it has not seen?

Each record of the bundled store is diagnosed from its own evidence lines and
symptoms twice, in-process: with the case memory minus the record's thread
(every record of that thread is left out and the word weights recounted), and
with the case memory switched off. The top three hypotheses of each run are kept.

Whether an answer names the record's confirmed cause is a judgement, never a
word match. Two kinds count:
- the collector's: a record filed under a KB page (`page`, set by the person who
  read the thread) is named by that page, and by another record filed under the
  same page or marked as its sibling (same cause, another thread);
- a reviewer's: every other (record, answer) pair is written out by `pairs` with
  both causes side by side, judged by someone who did not write the pages, and
  kept in benchmarks/case_memory/judgements.jsonl.
A pair nobody judged yet counts as wrong, and `score` says how many there were.

    python benchmarks/case_memory_loo.py run -o /tmp/loo.json
    python benchmarks/case_memory_loo.py pairs /tmp/loo.json -o /tmp/pending.jsonl
    python benchmarks/case_memory_loo.py score /tmp/loo.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from trainwreck.cases import load_memory
from trainwreck.cases.match import bundled_records
from trainwreck.cases.records import CaseRecord
from trainwreck.curation.cases import diagnose_unseen
from trainwreck.errors import TrainwreckError
from trainwreck.kb import load as load_kb
from trainwreck.pipeline import diagnose

ROOT = Path(__file__).resolve().parent.parent
JUDGEMENTS = ROOT / "benchmarks" / "case_memory" / "judgements.jsonl"
COLLECTED = ROOT / "cases" / "collected"
TOP = 3
CASE = "case:"


def _top(record: CaseRecord, folder: Path, memory_on: bool) -> list[str]:
    """The ids of the top hypotheses for a record's evidence, its thread left out."""
    log = folder / "evidence.log"
    log.write_text(record.evidence, encoding="utf-8")
    try:
        if memory_on:
            found = diagnose_unseen((log,), record.symptoms, (record.source, record.id), load_kb())
        else:
            found = diagnose([str(log)], symptoms=record.symptoms, cases=load_memory(bundled=False))
    except TrainwreckError:
        return []
    return [h.id for h in found.hypotheses[:TOP]]


def run(records: Iterable[CaseRecord]) -> list[dict[str, Any]]:
    """Each record's top answers with the case memory (minus its thread) and without."""
    sheet = []
    with tempfile.TemporaryDirectory() as tmp:
        for record in records:
            sheet.append(
                {
                    "record": record.id,
                    "category": record.category,
                    "on": _top(record, Path(tmp), memory_on=True),
                    "off": _top(record, Path(tmp), memory_on=False),
                }
            )
    return sheet


def _sibling_marks() -> list[tuple[str, str]]:
    """(record, sibling) pairs a collector marked: the same cause found in another thread."""
    marks = []
    for path in sorted(COLLECTED.glob("*.yaml")):
        for row in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            if row.get("sibling"):
                marks.append((str(row["id"]), str(row["sibling"])))
    return marks


def _siblings(records: dict[str, CaseRecord]) -> dict[str, set[str]]:
    """Record ids the collectors tied to the same cause: a shared page or a sibling mark."""
    by_page: dict[str, set[str]] = {}
    for record in records.values():
        if record.page:
            by_page.setdefault(record.page, set()).add(record.id)
    tied = {
        rid: by_page.get(r.page, set()) - {rid} if r.page else set() for rid, r in records.items()
    }
    for rid, sibling in _sibling_marks():
        if rid in tied and sibling in tied:
            tied[rid].add(sibling)
            tied[sibling].add(rid)
    return tied


def _collector_says(record: CaseRecord, answer: str, siblings: set[str]) -> bool | None:
    """True where the collectors' filing already says the answer names the cause."""
    if record.page and answer == record.page:
        return True
    if answer.startswith(CASE) and answer[len(CASE) :] in siblings:
        return True
    return None


def load_judgements(path: Path = JUDGEMENTS) -> dict[tuple[str, str], bool]:
    """Reviewers' verdicts on (record, answer) pairs."""
    if not path.is_file():
        return {}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {(row["record"], row["answer"]): bool(row["right"]) for row in rows}


def verdicts(
    sheet: list[dict[str, Any]], records: dict[str, CaseRecord], judged: dict[tuple[str, str], bool]
) -> dict[tuple[str, str], bool | None]:
    """Every (record, answer) pair of the sheet: right, wrong, or not judged yet (None)."""
    siblings = _siblings(records)
    found: dict[tuple[str, str], bool | None] = {}
    for entry in sheet:
        record = records[entry["record"]]
        for answer in {*entry["on"], *entry["off"]}:
            said = _collector_says(record, answer, siblings[record.id])
            pair = (record.id, answer)
            found[pair] = said if said is not None else judged.get(pair)
    return found


def _answer_text(answer: str, records: dict[str, CaseRecord], titles: dict[str, str]) -> str:
    if answer.startswith(CASE):
        other = records.get(answer[len(CASE) :])
        return f"confirmed thread: {other.cause}" if other else answer
    return f"KB page: {titles.get(answer, answer)}"


def pending(sheet: list[dict[str, Any]], records: dict[str, CaseRecord]) -> list[dict[str, str]]:
    """Pairs a reviewer still has to judge, with both causes side by side."""
    titles = {page.id: f"{page.title}. {page.root_cause}" for page in load_kb().patterns}
    found = verdicts(sheet, records, load_judgements())
    return [
        {
            "record": rid,
            "answer": answer,
            "confirmed_cause": records[rid].cause,
            "symptoms": records[rid].symptoms or "",
            "answer_says": _answer_text(answer, records, titles),
        }
        for (rid, answer), verdict in sorted(found.items())
        if verdict is None
    ]


def _at3(entry: dict[str, Any], mode: str, found: dict[tuple[str, str], bool | None]) -> bool:
    return any(found[(entry["record"], answer)] for answer in entry[mode])


def score(sheet: list[dict[str, Any]], records: dict[str, CaseRecord]) -> str:
    """cause@3 per class with the case memory (its thread left out) and without."""
    found = verdicts(sheet, records, load_judgements())
    totals: Counter[str] = Counter()
    hits = {"on": Counter[str](), "off": Counter[str]()}
    for entry in sheet:
        totals[entry["category"]] += 1
        for mode in hits:
            hits[mode][entry["category"]] += _at3(entry, mode, found)
    lines = [f"{'class':<22}{'n':>5}{'cause@3 on':>13}{'off':>9}{'gain':>8}"]
    for category in [*sorted(totals), "all"]:
        n = sum(totals.values()) if category == "all" else totals[category]
        on, off = (
            sum(hits[m].values()) if category == "all" else hits[m][category] for m in ("on", "off")
        )
        lines.append(
            f"{category:<22}{n:>5}{100 * on / n:>12.1f}%{100 * off / n:>8.1f}%"
            f"{100 * (on - off) / n:>+7.1f}"
        )
    unjudged = sum(verdict is None for verdict in found.values())
    lines.append(f"pairs not judged yet (counted wrong): {unjudged} of {len(found)}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run_cmd = sub.add_parser("run", help="diagnose every record, with and without the memory")
    run_cmd.add_argument("-o", "--output", type=Path, required=True)
    run_cmd.add_argument("--limit", type=int, help="only the first N records (a quick look)")
    run_cmd.add_argument(
        "--only", action="append", default=[], metavar="ID", help="only these records (repeatable)"
    )
    for name in ("pairs", "score"):
        cmd = sub.add_parser(name)
        cmd.add_argument("sheet", type=Path)
        if name == "pairs":
            cmd.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args()
    records = {record.id: record for record in bundled_records()}
    if args.command == "run":
        chosen = [r for r in records.values() if not args.only or r.id in args.only][: args.limit]
        args.output.write_text(json.dumps(run(chosen), indent=1), encoding="utf-8")
        print(f"{len(chosen)} records -> {args.output}")
        return
    sheet = json.loads(args.sheet.read_text(encoding="utf-8"))
    if args.command == "pairs":
        rows = pending(sheet, records)
        with args.output.open("w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        print(f"{len(rows)} pairs to judge -> {args.output}")
    else:
        print(score(sheet, records))


if __name__ == "__main__":
    main()
