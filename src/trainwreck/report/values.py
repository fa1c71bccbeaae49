"""How values are written in a report: config values, numbers, version commands.

A config value is written as `fixes.formats.literals.shown` writes it, so the
report and the consolidated config (`fixes.consolidate`) spell it the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from trainwreck.fixes.formats.literals import Value, shown
from trainwreck.fixes.formats.standalone import UNVERIFIED as UNVERIFIED

# Versions read from outside the package metadata: the interpreter, and what torch was built
# with (only asked for when the report needs them, so torch is imported only then).
_RUNTIME_EXPRESSIONS: dict[str, tuple[str, str]] = {
    "python": ("sys", "sys.version.split()[0]"),
    "cuda": ("torch", "torch.version.cuda"),
    "nccl": ("torch", "torch.cuda.nccl.version()"),
}
# A framework's distribution name where it differs from the name the report uses.
_DISTRIBUTIONS = {"megatron": "megatron-core"}
_ALIASES = {"pytorch": "torch", "megatron-core": "megatron"}


def format_value(value: Value) -> str:
    """A config value as a user would type it: `true`, `unset`, `[1, 2]`, `bf16`."""
    return shown(value)


def format_number(value: float | int | str) -> str:
    """A computed value: thousands separated, at most two decimals unless tiny."""
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return f"{value:,}"
    if value == 0 or abs(value) >= 0.01:
        return f"{value:,.2f}".rstrip("0").rstrip(".")
    return f"{value:.3g}"


def missing_frameworks(frameworks: Iterable[str], known: Iterable[str]) -> tuple[str, ...]:
    """The frameworks (canonical names, e.g. `torch`) whose version is not known."""
    known_names = {_canonical(name) for name in known}
    wanted = dict.fromkeys(_canonical(name) for name in frameworks)
    return tuple(name for name in wanted if name not in known_names)


def version_command(frameworks: Iterable[str]) -> str:
    """`python -c "..."` that prints the versions of `frameworks`.

    Package versions come from importlib.metadata by distribution name, so a package
    that is not installed prints "not installed" instead of stopping the command
    with an ImportError (as `import x; x.__version__` did).
    """
    names = list(dict.fromkeys(frameworks))
    runtime = [_RUNTIME_EXPRESSIONS[name] for name in names if name in _RUNTIME_EXPRESSIONS]
    dists = [_DISTRIBUTIONS.get(name, name) for name in names if name not in _RUNTIME_EXPRESSIONS]
    modules = ["importlib.metadata as m"] if dists else []
    modules += list(dict.fromkeys(module for module, _ in runtime))
    shown = []
    if dists:
        listed = ", ".join(f"'{name}'" for name in dists)
        shown.append(
            "{n: next((d.version for d in m.distributions(name=n)), 'not installed') "
            f"for n in [{listed}]}}"
        )
    shown += [expression for _, expression in runtime]
    return f'python -c "import {", ".join(modules)}; print({", ".join(shown)})"'


def _canonical(name: str) -> str:
    name = name.lower().replace("_", "-")
    return _ALIASES.get(name, name)
