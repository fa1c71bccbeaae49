"""Diagnosis accuracy on the real-case set, as users run it.

Runs `trainwreck diagnose --format json` (with the case's symptoms) on every case
under tests/cases/ and prints category@1, root-cause@1 and root-cause@3 by
category and overall, with the held-out cases reported separately; then the
symptoms-only queries of tests/symptoms/ (no logs), scored as top-3 retrieval.

Usage: python benchmarks/accuracy.py [--misses]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from trainwreck.curation.cases import Case, find_cases, load_symptom_queries

TESTS = Path(__file__).parent.parent / "tests"


@dataclass(frozen=True)
class Outcome:
    case: Case
    ranked: tuple[str, ...]
    top_category: str | None

    @property
    def category_at_1(self) -> bool:
        return self.top_category == self.case.category

    def cause_at(self, k: int) -> bool:
        return self.case.top_pattern in self.ranked[:k]


def run_case(case: Case) -> Outcome:
    """One real CLI run on the case's evidence."""
    command = [sys.executable, "-m", "trainwreck", "diagnose", "--format", "json"]
    command += [str(path) for path in case.inputs]
    if case.symptoms:
        command += ["--symptoms", case.symptoms]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        return Outcome(case, (), None)
    hypotheses = json.loads(result.stdout)["hypotheses"]
    ranked = tuple(h["id"] for h in hypotheses)
    return Outcome(case, ranked, hypotheses[0]["category"] if hypotheses else None)


def _row(name: str, outcomes: list[Outcome]) -> str:
    n = len(outcomes)

    def pct(hits: int) -> str:
        return f"{100 * hits / n:6.1f}%" if n else "     -"

    category = pct(sum(o.category_at_1 for o in outcomes))
    at1 = pct(sum(o.cause_at(1) for o in outcomes))
    at3 = pct(sum(o.cause_at(3) for o in outcomes))
    return f"{name:<22} {n:>5} {category:>12} {at1:>9} {at3:>9}"


def report(outcomes: list[Outcome], show_misses: bool) -> str:
    lines = [f"{'set':<22} {'cases':>5} {'category@1':>12} {'cause@1':>9} {'cause@3':>9}"]
    by_category: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        by_category[outcome.case.category].append(outcome)
    lines += [_row(category, group) for category, group in sorted(by_category.items())]
    lines.append(_row("overall", outcomes))
    lines.append(_row("held out", [o for o in outcomes if o.case.holdout]))
    lines.append(_row("tuned on", [o for o in outcomes if not o.case.holdout]))
    if show_misses:
        lines += [
            f"miss: {o.case.path.name}: want {o.case.top_pattern}, got {list(o.ranked[:3])}"
            for o in outcomes
            if not o.cause_at(1)
        ]
    return "\n".join(lines)


def symptoms_top3(query: str, expected: str) -> bool:
    """One CLI run with --symptoms only: is the expected page in the top 3?"""
    command = [
        sys.executable,
        "-m",
        "trainwreck",
        "diagnose",
        "--format",
        "json",
        "--symptoms",
        query,
    ]
    result = subprocess.run(
        command, capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL
    )
    if result.returncode != 0:
        return False
    return expected in [h["id"] for h in json.loads(result.stdout)["hypotheses"][:3]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list the cases ranked wrong")
    args = parser.parse_args()
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(run_case, find_cases(TESTS / "cases")))
        queries = load_symptom_queries(TESTS / "symptoms")
        found = list(pool.map(lambda q: symptoms_top3(*q), queries))
    print(report(outcomes, args.misses))
    share = 100 * sum(found) / len(found) if found else 0.0
    print(f"symptoms-only queries: {sum(found)}/{len(found)} in top 3 ({share:.1f}%)")
    if args.misses:
        print(
            "\n".join(
                f"symptoms miss: {q!r} -> want {e}"
                for (q, e), hit in zip(queries, found, strict=True)
                if not hit
            )
        )


if __name__ == "__main__":
    main()
