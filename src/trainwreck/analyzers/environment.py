"""Environment conflicts as findings: mismatched builds, ABI errors traced to a package, known bugs.

Reads the environment listing in the evidence (packages and machine facts) and
checks it against the cited matrices in `trainwreck.env`; binary-mismatch
messages in the logs are traced to the package built against another
torch / NumPy / CUDA. Each finding carries arithmetic lines: the requirement,
the installed version, whether the specifier holds, and the source.
"""

from __future__ import annotations

from trainwreck.env import compat
from trainwreck.env.known_bugs import KnownBug, known_bugs
from trainwreck.env.links import Line, trace
from trainwreck.env.model import Conflict, Environment, Facts, Package
from trainwreck.kb import load
from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding, SourceRef

# Lines the log reader must keep for the tracing (besides the KB's own signatures).
KEEP: tuple[str, ...] = (
    r"(?:undefined symbol: _ZNK?(?:3c10|2at|5torch|6caffe2))",
    r"(?:compiled against (?:ABI|API) version 0x)",
    r"(?:PyTorch \d\S* with CUDA \d+ \(you have )",
    r"(?:compiled using NumPy 1\.x|^NumPy 2\.\d+(?:\.\d+)? as it may crash)",
    r"(?:does not match the version torch was compiled with|Loaded runtime CuDNN library: )",
)
# Conflicts between two versions a log line states (env.pairs): shown as a comparison.
PAIR_KINDS = frozenset({"toolkit", "cudnn"})
# conflict kind -> finding id (stable: KB signatures may name them)
CONFLICT_FINDING_IDS = {
    "matrix": "env.companion_mismatch",
    "variant": "env.variant_mismatch",
    "driver": "env.driver_too_old",
    "python": "env.python_unsupported",
    "numpy-abi": "env.numpy_abi",
    "abi": "env.abi_mismatch",
    "cuda": "env.cuda_unsupported",
    "toolkit": "env.nvcc_mismatch",
    "cudnn": "env.cudnn_older",
}
OTHER_CONFLICT = "env.conflict"  # a kind with no id of its own (an unmet requirement)
FINDING_IDS: tuple[str, ...] = (*CONFLICT_FINDING_IDS.values(), OTHER_CONFLICT, "env.known_bug")
TITLES = {
    "matrix": "An installed package was built for another release of one it depends on",
    "variant": "torch and a companion package are different builds (cpu / cuXYZ)",
    "driver": "The NVIDIA driver is older than torch's CUDA runtime needs",
    "python": "Python is outside the versions the installed torch ships wheels for",
    "numpy-abi": "A module built against NumPy 1.x runs under NumPy 2",
    "abi": "A compiled extension was built against another torch",
    "cuda": "An extension's release does not support this CUDA",
    "toolkit": "nvcc differs from the CUDA torch was built with, so extensions will not compile",
    "cudnn": "The cuDNN loaded at run time is older than the one the framework was compiled with",
}


def _environment(evidence: Evidence) -> Environment:
    packages = {
        name: Package(name, version, name, source="environment listing")
        for name, version in evidence.environment.items()
    }
    facts = dict(evidence.environment_facts)
    if evidence.setup.python and "python" not in facts:
        facts["python"] = evidence.setup.python
    return Environment(packages=packages, facts=Facts(facts))


def _lines(evidence: Evidence) -> list[Line]:
    """Log lines and each exception (its frames first), in log order."""
    entries: list[tuple[str, int, int, Line]] = []
    for item in evidence.lines:
        entries.append((item.source, item.line, 1, Line(item.source, item.line, item.text)))
    for exc in evidence.exceptions:
        for frame in exc.frames:
            text = f'File "{frame.file}", line {frame.line}'
            at = frame.log_line if frame.log_line is not None else exc.line
            entries.append((exc.source, exc.line, 0, Line(exc.source, at, text)))
        message = Line(exc.source, exc.message_ref_line, f"{exc.type}: {exc.message}")
        entries.append((exc.source, exc.line, 2, message))
    return [line for *_, line in sorted(entries, key=lambda e: e[:3])]


def _ref(text: str) -> SourceRef:
    where, _, said = text.partition(": ")
    source, _, line = where.rpartition(":")
    if source and line.isdigit():
        return SourceRef(source=source, line=int(line), text=said)
    return SourceRef(source=where, text=said)


def _arithmetic(conflict: Conflict) -> Arithmetic:
    holds = "no" if conflict.installed else "not installed"
    stated = _ref(conflict.evidence[0]) if conflict.evidence else None
    where = f"{stated.source}:{stated.line}" if stated and stated.line else "environment listing"
    lines = [
        ArithmeticLine(
            label="requirement",
            formula=f"{conflict.package} {conflict.version} needs",
            value=conflict.requirement or conflict.message,
            source=conflict.source,
        ),
        ArithmeticLine(
            label="installed",
            formula=conflict.dependency,
            value=conflict.installed or "-",
            source=where if conflict.installed else "-",
        ),
        ArithmeticLine(
            label="satisfied",
            formula=f"{conflict.installed or conflict.dependency} in {conflict.requirement}",
            value=holds,
            source="the cited rule" if stated else "PEP 440 comparison",
        ),
    ]
    return Arithmetic(title=conflict.message, lines=tuple(lines), result=conflict.fix)


def _finding(conflict: Conflict) -> Finding:
    return Finding(
        id=CONFLICT_FINDING_IDS.get(conflict.kind, OTHER_CONFLICT),
        title=TITLES.get(conflict.kind, "Environment conflict"),
        category="dependency_conflict" if conflict.severity == "error" else None,
        summary=f"{conflict.message} Fix: {conflict.fix} "
        + " ".join(f"`{c}`" for c in conflict.commands[:2])
        + f" (source: {conflict.source})",
        evidence=tuple(_ref(item) for item in conflict.evidence),
        values={
            "package": conflict.package,
            "version": conflict.version,
            "requirement": conflict.requirement,
            "dependency": conflict.dependency,
            "installed": conflict.installed,
            "source": conflict.source,
        },
        # A traced log error has its evidence; a listing conflict or a version pair a log
        # line states has the comparison.
        arithmetic=None
        if conflict.evidence and conflict.kind not in PAIR_KINDS
        else _arithmetic(conflict),
    )


def _bug_finding(bug: KnownBug) -> Finding:
    return Finding(
        id="env.known_bug",
        title=f"Known bug in the installed {bug.package} {bug.installed}",
        summary=bug.message + (f" (source: {bug.url})" if bug.url else ""),
        values={
            "page": bug.page,
            "package": bug.package,
            "installed": bug.installed,
            "affected": bug.specifier,
            "fixed_in": bug.fixed_in,
        },
    )


def analyze(evidence: Evidence) -> list[Finding]:
    """Findings for cited conflicts in the listing, ABI errors in the logs, and known bugs."""
    env = _environment(evidence)
    conflicts: list[Conflict] = []
    if env.packages or env.facts.values:
        conflicts += [c for check_one in compat.CITED_CHECKS for c in check_one(env)]
    conflicts += trace(env, _lines(evidence))
    findings = [_finding(conflict) for conflict in conflicts]
    if env.packages:
        findings += [_bug_finding(bug) for bug in known_bugs(env, load())]
    return findings
