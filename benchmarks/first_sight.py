"""First-sight accuracy: the tool's answers on failures the KB was not written from.

Two steps, with a person (or a reviewer who did not write the pages) between them:

  python benchmarks/first_sight.py answers BATCH_DIR -o answers.json [--tree DIR]
      runs `trainwreck diagnose --format json` (from the tree DIR, default this
      checkout) on every case of the batch with its symptoms, and writes each
      case's confirmed cause beside the top three hypotheses: the sheet a
      reviewer judges;
  python benchmarks/first_sight.py score answers.json judgments.yaml
      prints judged cause@1, cause@3, the class match against the stated
      class, and the reliability table (how often each confidence level was right).

A judgment per case: {case: slug, at1: right|family|wrong, at3: true|false}.
"right" means the top hypothesis names the confirmed cause; "family" the right
failure family but not the cause. A keyword match is not a judgement.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

TOP = 3


def _case_meta(folder: Path) -> dict[str, Any]:
    meta: dict[str, Any] = yaml.safe_load((folder / "case.yaml").read_text(encoding="utf-8"))
    return meta


def _report(folder: Path, meta: dict[str, Any], tree: Path, cases: str) -> dict[str, Any]:
    """The CLI's JSON report; a batch already in the case memory leaves each case out of it."""
    if cases == "leave-out":  # this checkout's library, in-process
        from trainwreck.curation.cases import diagnose_folder
        from trainwreck.report import to_json

        loaded: dict[str, Any] = json.loads(to_json(diagnose_folder(folder)))
        return loaded
    inputs = [str(folder / name) for name in meta.get("inputs") or []]
    command = [sys.executable, "-m", "trainwreck", "diagnose", "--format", "json", *inputs]
    if cases == "off":
        command.append("--no-cases")
    if meta.get("symptoms"):
        command += ["--symptoms", str(meta["symptoms"]).strip()]
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    result = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if result.returncode != 0:
        return {"error": result.stderr.strip()[-300:]}
    parsed: dict[str, Any] = json.loads(result.stdout)
    return parsed


def _diagnose(folder: Path, meta: dict[str, Any], tree: Path, cases: str) -> dict[str, Any]:
    report = _report(folder, meta, tree, cases)
    if "error" in report:
        return report
    return {
        "stated": (report.get("context") or {}).get("stated"),
        "undecided": report.get("undecided"),
        "hypotheses": [
            {
                key: h.get(key)
                for key in ("id", "title", "category", "root_cause", "confidence", "score")
            }
            for h in report["hypotheses"][:TOP]
        ],
    }


def answers(batch: Path, tree: Path, cases: str = "on") -> list[dict[str, Any]]:
    """Each case's confirmed cause beside the tool's top hypotheses."""
    sheet = []
    for folder in sorted(p for p in batch.iterdir() if (p / "case.yaml").is_file()):
        meta = _case_meta(folder)
        sheet.append(
            {
                "case": folder.name,
                "category": meta["category"],
                "symptoms": meta.get("symptoms"),
                "confirmed_cause": " ".join(str(meta["confirmed_cause"]).split()),
                **_diagnose(folder, meta, tree, cases),
            }
        )
    return sheet


def _pct(hits: int, total: int) -> str:
    return f"{100 * hits / total:5.1f}% ({hits}/{total})" if total else "    -"


def score(sheet: list[dict[str, Any]], judgments: list[dict[str, Any]]) -> str:
    """The figures first_sight.md records for one batch."""
    judged = {j["case"]: j for j in judgments}
    rows = [(entry, judged[entry["case"]]) for entry in sheet if entry["case"] in judged]
    n = len(rows)
    at1 = sum(j["at1"] == "right" for _, j in rows)
    family = sum(j["at1"] in ("right", "family") for _, j in rows)
    at3 = sum(bool(j["at3"]) or j["at1"] == "right" for _, j in rows)
    top_class = [
        (e["hypotheses"][0]["category"] if e.get("hypotheses") else None, e["category"])
        for e, _ in rows
    ]
    class_right = sum(got == want for got, want in top_class)
    stated = [
        (e["hypotheses"][0]["category"], e["stated"]["category"])
        for e, _ in rows
        if e.get("stated") and e.get("hypotheses")
    ]
    lines = [
        f"cases judged       {n}",
        f"cause@1            {_pct(at1, n)}",
        f"family@1           {_pct(family, n)}",
        f"cause@3            {_pct(at3, n)}",
        f"class@1            {_pct(class_right, n)}",
        f"class = stated     {_pct(sum(g == w for g, w in stated), len(stated))}",
    ]
    levels: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for entry, judgment in rows:
        level = entry["hypotheses"][0]["confidence"] if entry.get("hypotheses") else "none"
        levels[level] += 1
        right[level] += judgment["at1"] == "right"
    for level in ("high", "medium", "low", "none"):
        if levels[level]:
            lines.append(f"right at {level:<9} {_pct(right[level], levels[level])}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("answers")
    run.add_argument("batch", type=Path)
    run.add_argument("-o", "--output", type=Path, required=True)
    run.add_argument("--tree", type=Path, default=Path(__file__).resolve().parent.parent)
    run.add_argument(
        "--cases",
        choices=["on", "off", "leave-out"],
        default="on",
        help="the case memory: on (as users run it), off (--no-cases), or leave-out (in-process,"
        " each case's own record left out: for a batch already in the store)",
    )
    rate = sub.add_parser("score")
    rate.add_argument("answers", type=Path)
    rate.add_argument("judgments", type=Path)
    args = parser.parse_args()
    if args.command == "answers":
        sheet = answers(args.batch, args.tree.resolve(), cases=args.cases)
        args.output.write_text(json.dumps(sheet, indent=1) + "\n", encoding="utf-8")
        print(f"{len(sheet)} cases -> {args.output}")
    else:
        sheet = json.loads(args.answers.read_text(encoding="utf-8"))
        judgments = yaml.safe_load(args.judgments.read_text(encoding="utf-8"))
        print(score(sheet, judgments))


if __name__ == "__main__":
    main()
