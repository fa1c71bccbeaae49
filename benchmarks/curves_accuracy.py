"""Curve detector accuracy on generated runs with planted events.

Generates N runs (default 500) spread evenly over the kinds in
tests/curves/curve_generator.py (healthy runs included, to count false alarms),
runs the detectors on each, and prints precision and recall per event type.
Spikes are counted per spike; the other events per run. Target: >= 0.95 each.

Usage: python benchmarks/curves_accuracy.py [--runs 500] [--misses]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests" / "curves"))

from curve_generator import KINDS, generate
from curve_scoring import EVENTS, score

from trainwreck.curves.detect import detect


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--misses", action="store_true", help="print each miss and false alarm")
    args = parser.parse_args()
    totals: dict[str, Counter[str]] = {kind: Counter() for kind in EVENTS}
    started = time.perf_counter()
    for seed in range(args.runs):
        kind = KINDS[seed % len(KINDS)]
        run = generate(seed, kind)
        findings = detect(run.table(), run.facts())
        for event, counts in score(run.planted, findings).items():
            totals[event].update(counts)
            if args.misses and (counts["fp"] or counts["fn"]):
                ids = sorted(f.id for f in findings)
                print(f"seed {seed} ({kind}): {event} fp={counts['fp']} fn={counts['fn']} {ids}")
    elapsed = time.perf_counter() - started
    print(f"{args.runs} generated runs in {elapsed:.1f} s")
    print(f"{'event':<12} {'planted':>7} {'found':>7} {'precision':>9} {'recall':>7}")
    worst = 1.0
    for event in EVENTS:
        tp, fp, fn = totals[event]["tp"], totals[event]["fp"], totals[event]["fn"]
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        worst = min(worst, precision, recall)
        print(f"{event:<12} {tp + fn:>7} {tp + fp:>7} {precision:>9.3f} {recall:>7.3f}")
    print(f"lowest figure: {worst:.3f} (target 0.95)")
    return 0 if worst >= 0.95 else 1


if __name__ == "__main__":
    raise SystemExit(main())
