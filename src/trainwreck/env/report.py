"""One environment report: read the inputs, run every check, render as text or JSON.

`build_report` is what `trainwreck env` calls; `text` and `as_json` are pure
renderers of its result. A listing or log is evidence: it is redacted as it is
read (`pkg @ git+https://alice:<redacted:url-password>@...`), and what is rendered
is redacted again.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from trainwreck.env import check, merge, read_listing, read_live
from trainwreck.env.known_bugs import KnownBug, known_bugs
from trainwreck.env.links import Line, trace
from trainwreck.env.model import Conflict, Environment
from trainwreck.errors import UsageError
from trainwreck.kb import load
from trainwreck.limits import read_small_text
from trainwreck.redact import redact, redact_data

LISTING_HINT = "pass the listing alone"  # what to do with a file over the size limit

KNOWN_FORMATS = (
    "pip freeze/list (columns or JSON), uv pip list, conda list, collect_env, nvidia-smi, nvcc"
)


@dataclass(frozen=True)
class EnvReport:
    environment: Environment
    conflicts: tuple[Conflict, ...]
    links: tuple[Conflict, ...]
    known_bugs: tuple[KnownBug, ...]

    @property
    def errors(self) -> int:
        return sum(c.severity == "error" for c in (*self.conflicts, *self.links))


def read_files(paths: Sequence[str]) -> Environment:
    """One environment from listing files; a file with nothing recognisable is a UsageError."""
    found = []
    for path in paths:
        env = read_listing(
            redact(read_small_text(path, sys.stdin.buffer, LISTING_HINT)), redact(path)
        )
        if not env.packages and not env.facts.values:
            raise UsageError(
                f"{path}: no environment listing recognised (expected {KNOWN_FORMATS})"
            )
        found.append(env)
    return merge(found)


def build_report(
    from_files: Sequence[str] = (),
    log_files: Sequence[str] = (),
    with_torch: bool = False,
    site_packages: Sequence[str] = (),
) -> EnvReport:
    """Read the live environment (or the listings), check it, and trace log errors to it."""
    for path in site_packages:
        if not Path(path).is_dir():
            raise UsageError(f"{path}: not a directory (give a site-packages folder)")
    if from_files:
        env = read_files(from_files)
    else:
        env = read_live(with_torch=with_torch, paths=list(site_packages) or None)
    lines: list[Line] = []
    for path in log_files:
        text = redact(read_small_text(path, sys.stdin.buffer, LISTING_HINT))
        lines.extend(Line(redact(path), n, t) for n, t in enumerate(text.splitlines(), start=1))
    return EnvReport(
        environment=env,
        conflicts=tuple(check(env)),
        links=tuple(trace(env, lines)),
        known_bugs=tuple(known_bugs(env, load())),
    )


def _summary(env: Environment) -> str:
    facts = env.facts.values
    parts = [f"{len(env.packages)} packages"]
    if "python" in facts:
        parts.append(f"Python {facts['python']}")
    torch = env.version("torch")
    if torch:
        cuda = facts.get("torch_cuda")
        parts.append(f"torch {torch}" + (f" (CUDA {cuda})" if cuda else ""))
    if "driver" in facts:
        cuda = facts.get("driver_cuda")
        parts.append(f"NVIDIA driver {facts['driver']}" + (f" (up to CUDA {cuda})" if cuda else ""))
    if "gpu" in facts:
        parts.append(facts["gpu"])
    kind = "live environment" if env.live else ", ".join(env.formats) or "listing"
    return f"Environment ({kind}: {', '.join(env.sources)}): " + " · ".join(parts)


def _conflict_lines(conflict: Conflict) -> list[str]:
    lines = [f"  {conflict.severity}: {conflict.message}"]
    lines.extend(f"      seen: {item}" for item in conflict.evidence)
    lines.append(f"      fix: {conflict.fix}")
    lines.extend(f"        $ {command}" for command in conflict.commands)
    lines.append(f"      source: {conflict.source}")
    return lines


def text(report: EnvReport, list_packages: bool = False) -> str:
    """The report for a terminal or a pipe: plain text, one finding per block."""
    env = report.environment
    out = [_summary(env), ""]
    if list_packages:
        for package in sorted(env.packages.values(), key=lambda p: p.name):
            flags = " (editable)" if package.editable else ""
            origin = f" @ {package.direct_url}" if package.direct_url else ""
            out.append(
                f"  {package.display_name or package.name} {package.version or '?'}{flags}{origin}"
            )
        out.append("")
    blocks = (
        ("Conflicts", report.conflicts),
        ("Errors in the logs traced to packages", report.links),
    )
    for title, items in blocks:
        if items:
            out.append(f"{title} ({len(items)}):")
            for conflict in items:
                out.extend(_conflict_lines(conflict))
            out.append("")
    if report.known_bugs:
        out.append(f"Known bugs in installed versions ({len(report.known_bugs)}):")
        for bug in report.known_bugs:
            out.append(f"  {bug.message}")
            if bug.url:
                out.append(f"      source: {bug.url}")
        out.append("")
    if not (report.conflicts or report.links or report.known_bugs):
        out.append("No conflicts found: every requirement and cited matrix row is satisfied.")
        out.append("")
    out.extend(f"note: {note}" for note in env.notes)
    return redact("\n".join(out).rstrip() + "\n")


def as_json(report: EnvReport) -> str:
    """The whole report as JSON (packages sorted by name)."""
    env = report.environment
    data = {
        "environment": {
            "live": env.live,
            "sources": list(env.sources),
            "formats": list(env.formats),
            "facts": env.facts.values,
            "fact_sources": env.facts.origins,
            "packages": [asdict(p) for p in sorted(env.packages.values(), key=lambda p: p.name)],
            "notes": list(env.notes),
        },
        "conflicts": [asdict(c) for c in report.conflicts],
        "links": [asdict(c) for c in report.links],
        "known_bugs": [asdict(b) for b in report.known_bugs],
    }
    return json.dumps(redact_data(data), indent=2) + "\n"
