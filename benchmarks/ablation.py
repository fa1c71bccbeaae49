"""Ablation: which real cases each analyzer and code detector turns from wrong to right.

Every known case (tests/cases, the first-sight folders whose bundled record names
the page of their confirmed cause, and the other bundled records that name one) is
diagnosed with every analyzer and code detector; then, for each of them, the cases
it produced a finding on are diagnosed again without it. One table, side by side:
how many cases it fired on, how many top answers it changes, and which cases it turns
wrong -> right and right -> wrong ("right" = the top hypothesis is the expected page).
A right -> wrong case is a part that costs a right answer: worth a look.

Usage: PYTHONPATH=src python benchmarks/ablation.py [--set suite|records|all] [--list]
Takes about 20 s for all ~525 cases on one core: each case is diagnosed once, and again
only without the parts that produced a finding on it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from trainwreck.curation.ablation import Ablation, measure, parts
from trainwreck.curation.known import Known, record_cases, script_cases, suite_cases

ROOT = Path(__file__).parent.parent
SHOWN = 3  # case names per cell; --list prints them all


def known(which: str) -> list[Known]:
    suite = suite_cases(ROOT / "tests" / "cases")
    records = record_cases(ROOT / "benchmarks" / "first_sight")
    sets = {"suite": suite, "records": records, "scripts": script_cases(suite + records)}
    return [case for name, cases in sets.items() if which in (name, "all") for case in cases]


def _names(names: list[str], everything: bool) -> str:
    if everything or len(names) <= SHOWN:
        return ", ".join(names) or "-"
    return f"{', '.join(names[:SHOWN])} (+{len(names) - SHOWN})"


def table(result: Ablation, everything: bool) -> str:
    lines = [f"{'analyzer / detector':<38} {'fired':>5} {'moved':>5}  wrong->right | right->wrong"]
    for part in parts():
        moved = result.moved[part]
        gained = [m.case for m in moved if m.wrong_to_right]
        lost = [m.case for m in moved if m.right_to_wrong]
        lines.append(
            f"{part:<38} {result.fired_on(part):>5} {len(moved):>5}  "
            f"{len(gained)}: {_names(gained, everything)} | {len(lost)}: {_names(lost, everything)}"
        )
    lines.append(f"top answer right with every part: {result.right}/{len(result.tops)}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("suite", "records", "scripts", "all"), default="all")
    parser.add_argument("--list", action="store_true", help="name every case in each cell")
    args = parser.parse_args()
    cases = known(args.set)
    result = measure(cases, progress=lambda part: print(f"  {part}", file=sys.stderr))
    print(f"{len(cases)} known cases ({args.set})")
    print(table(result, args.list))


if __name__ == "__main__":
    main()
