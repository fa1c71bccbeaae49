"""The tools over many runs: `triage` (a fleet grouped by cause) and `compare_runs` (two runs).

Both read only under the --allow roots: every run triage discovers is checked again,
since discovery follows a symlinked folder that the roots' walk does not enter. Triage
runs in this process (no pool is forked by the server) and stops at MAX_TRIAGE_RUNS.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trainwreck.compare import compare
from trainwreck.compare import render as compare_render
from trainwreck.mcp_server.answers import Answer
from trainwreck.mcp_server.inputs import Policy, ToolInputError, text_argument
from trainwreck.triage import RunSummary
from trainwreck.triage import render as triage_render
from trainwreck.triage import triage as triage_runs
from trainwreck.triage.baseline import group_ids
from trainwreck.triage.pool import summaries

# Runs one triage call diagnoses. A run takes ~30 ms in one process (40 real case folders
# from tests/cases in 1.2 s on the 2-core development machine), so 500 answer in ~15 s;
# the CLI's process pool has no cap.
MAX_TRIAGE_RUNS = 500


@dataclass
class _Admitted:
    """The engine of one call: each discovered run checked against the allow-list, in this
    process, until MAX_TRIAGE_RUNS; `capped` says whether runs were left out."""

    policy: Policy
    capped: bool = False

    def __call__(self, runs: Iterable[str]) -> Iterator[RunSummary]:
        return summaries(self._checked(runs), jobs=1)

    def _checked(self, runs: Iterable[str]) -> Iterator[str]:
        for index, run in enumerate(runs):
            if index == MAX_TRIAGE_RUNS:
                self.capped = True
                return
            self.policy.path(run)
            yield run


def _baseline(given: Mapping[str, Any] | str | None) -> frozenset[str] | None:
    """The group ids of a previous triage's JSON: the object itself, or its text."""
    if given is None:
        return None
    text = text_argument("baseline_json", given) if isinstance(given, str) else None
    try:
        return group_ids(given if text is None else json.loads(text))
    except (ValueError, KeyError, TypeError) as error:
        raise ToolInputError(
            f"baseline_json is not a triage JSON ({type(error).__name__}); pass a previous "
            "triage answer's structured content or `trainwreck triage --format json` output"
        ) from None


def triage(
    policy: Policy,
    paths: Sequence[str],
    baseline_json: Mapping[str, Any] | str | None = None,
) -> Answer:
    """`trainwreck triage` on the runs under `paths`: failures grouped by cause."""
    roots = policy.paths(paths)
    if not roots:
        raise ToolInputError("nothing to triage: give run directories or log files in paths")
    known = _baseline(baseline_json)
    engine = _Admitted(policy)
    result = triage_runs(roots, jobs=1, baseline=known, engine=engine)
    markdown = triage_render.to_markdown(result)
    data = json.loads(triage_render.to_json(result))
    if engine.capped:
        note = (
            f"Capped: only the first {MAX_TRIAGE_RUNS} runs found were diagnosed; run "
            "`trainwreck triage PATHS` for all of them, or pass fewer paths."
        )
        markdown = f"{note}\n\n{markdown}"
        data["capped"] = {"limit": MAX_TRIAGE_RUNS, "note": note}
    return Answer(markdown, data)


def compare_runs(policy: Policy, good: str, bad: str) -> Answer:
    """`trainwreck compare GOOD BAD`: what changed between the runs, ranked by what it can cause."""
    comparison = compare([policy.path(good)], [policy.path(bad)])
    return Answer(
        compare_render.to_markdown(comparison), json.loads(compare_render.to_json(comparison))
    )
