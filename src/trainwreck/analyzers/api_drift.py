"""A name, keyword or flag that the installed release of a package does not have.

`module 'numpy' has no attribute 'float'`, `cannot import name 'packaging' from
'pkg_resources'`, `Trainer.__init__() got an unexpected keyword argument
'processing_class'` raised inside trl, `vllm: error: unrecognized arguments:
--enable-reasoning`: each names the package and the symbol, and the usual cause
is code (the user's, or another package's) written for a different release of
that package. The finding names both, with the installed version when the
evidence lists it, so the page's root cause can say which package to move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from trainwreck.analyzers.said import Said, statements
from trainwreck.model import Evidence, ExceptionRecord, Finding

FINDING_ID = "api.missing_in_installed_release"
FINDING_IDS: tuple[str, ...] = (FINDING_ID,)

# Import names whose distribution is named differently (PyPI project pages).
_DISTRIBUTION = {
    "pkg_resources": "setuptools",
    "sklearn": "scikit-learn",
    "cv2": "opencv-python",
    "PIL": "pillow",
    "yaml": "pyyaml",
}
# Messages where the name exists but could not be loaded: a circular or shadowed import,
# not a release difference.
_NOT_RELEASE = re.compile(r"partially initialized|circular import|unknown location")
_ATTRIBUTE = re.compile(r"module '(?P<module>[A-Za-z_][\w.]*)' has no attribute '(?P<symbol>\w+)'")
_IMPORT = re.compile(r"cannot import name '(?P<symbol>\w+)' from '(?P<module>[A-Za-z_][\w.]*)'")
_KEYWORD = re.compile(
    r"^TypeError: (?P<callee>[\w.]+)\(\) got an unexpected keyword argument '(?P<symbol>\w+)'"
)
# A frame line (`.../trl/trainer/grpo_trainer.py", line 269, in __init__`) a few lines above.
_FRAME_PATH = re.compile(r"(?:site-packages/|^/?)(?P<library>[A-Za-z_]\w*)/[\w/]*\.py\", line \d+")
_FRAME_REACH = 4
_WORDS = ("has no attribute", "cannot import name", "unexpected keyword", "unrecognized")
# argparse: "prog: error: unrecognized arguments: --flag"; a pasted line may lose its spaces.
_FLAG = re.compile(
    r"(?P<module>[A-Za-z][\w.-]*)\s*:\s*error\s*:\s*"
    r"unrecognized arguments\s*:\s*(?P<symbol>--?[\w-]+)"
)


@dataclass(frozen=True)
class Missing:
    """What the error names: the package, the symbol, who asked for it, and where it was said."""

    kind: str  # "attribute" | "import" | "keyword" | "flag"
    package: str
    module: str
    symbol: str
    caller: str | None
    said: Said


def _distribution(module: str) -> str:
    top = module.split(".")[0]
    return _DISTRIBUTION.get(top, top)


def _caller(exc: ExceptionRecord | None, package: str) -> str | None:
    """The innermost frame's package outside `package` ('your code' for the user's own)."""
    for frame in reversed(exc.frames if exc else ()):
        if frame.library in (package, "python"):
            continue
        return frame.library or "your code"
    return None


def _named(evidence: Evidence, said: Said, exc: ExceptionRecord | None) -> Missing | None:
    """What `said` names as missing; `exc` is its traceback when it came from one."""
    if _NOT_RELEASE.search(said.text):
        return None
    for kind, regex in (("attribute", _ATTRIBUTE), ("import", _IMPORT), ("flag", _FLAG)):
        if (match := regex.search(said.text)) is not None:
            module = match["module"]
            package = _distribution(module)
            if kind == "flag" and module.endswith(".py"):
                return None  # the user's own script's arguments, not a package's
            return Missing(kind, package, module, match["symbol"], _caller(exc, package), said)
    if (match := _KEYWORD.search(said.text)) is not None and exc is not None:
        library = exc.frames[-1].library if exc.frames else _pasted_caller(evidence, exc)
        if library in (None, "python"):
            return None  # a call from the user's own code: the release-specific pages judge it
        return Missing("keyword", str(library), match["callee"], match["symbol"], None, said)
    return None


def _pasted_caller(evidence: Evidence, exc: ExceptionRecord) -> str | None:
    """The package of the frame line just above a traceback pasted without its header."""
    above = [
        line
        for line in evidence.lines
        if line.source == exc.source and exc.line - _FRAME_REACH <= line.line < exc.line
    ]
    for line in reversed(above):
        if (match := _FRAME_PATH.search(line.text)) is not None:
            return match["library"]
    return None


def _first(evidence: Evidence) -> Missing | None:
    """Tracebacks first (their frames say who called), then log lines and the symptoms."""
    for exc in evidence.exceptions:
        said = Said(f"{exc.type}: {exc.message}", exc.source, exc.message_ref_line)
        if (missing := _named(evidence, said, exc)) is not None:
            return missing
    for said in statements(evidence, *_WORDS):
        if (missing := _named(evidence, said, None)) is not None:
            return missing
    return None


def _title(missing: Missing, installed: str | None) -> str:
    release = f"{missing.package} {installed}" if installed else f"the installed {missing.package}"
    if missing.kind == "keyword":
        caller = f"{missing.package}{f' {installed}' if installed else ''}"
        return (
            f"{caller} calls {missing.module}() with '{missing.symbol}', which that function "
            f"does not accept: one side was written for another release of the other"
        )
    if missing.kind == "flag":
        return (
            f"{release} has no command-line flag {missing.symbol}: the command was written "
            f"for another {missing.package} release"
        )
    who = missing.caller or "the calling code"
    return (
        f"{release} has no {missing.module}.{missing.symbol}: {who} was written for "
        f"another {missing.package} release"
    )


def analyze(evidence: Evidence) -> list[Finding]:
    """One finding for the first missing name, keyword or flag the evidence states."""
    missing = _first(evidence)
    if missing is None:
        return []
    installed = evidence.installed_version(missing.package)
    title = _title(missing, installed)
    return [
        Finding(
            id=FINDING_ID,
            title=title,
            category="dependency_conflict",
            summary=title,
            evidence=(missing.said.ref,),
            values={
                "kind": missing.kind,
                "package": missing.package,
                "module": missing.module,
                "symbol": missing.symbol,
                "caller": missing.caller,
                "installed": installed,
            },
        )
    ]
