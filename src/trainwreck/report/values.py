"""How values are written in a report: config values, numbers, version commands.

A config value is written as `fixes.formats.literals.shown` writes it, so the
report and the consolidated config (`fixes.consolidate`) spell it the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from trainwreck.fixes.formats.literals import Value, shown
from trainwreck.fixes.formats.standalone import UNVERIFIED as UNVERIFIED

# How to print a framework's version where `import <name>; <name>.__version__` is wrong.
_VERSION_EXPRESSIONS: dict[str, tuple[str, str]] = {
    "torch": ("torch", "torch.__version__"),
    "cuda": ("torch", "torch.version.cuda"),
    "nccl": ("torch", "torch.cuda.nccl.version()"),
    "python": ("sys", "sys.version.split()[0]"),
    "megatron": ("megatron.core", "megatron.core.__version__"),
}
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
    """`python -c "..."` that prints the versions of `frameworks`."""
    pairs = [_VERSION_EXPRESSIONS.get(name) or _default_expression(name) for name in frameworks]
    modules = ", ".join(dict.fromkeys(module for module, _ in pairs))
    expressions = ", ".join(expression for _, expression in pairs)
    return f'python -c "import {modules}; print({expressions})"'


def _canonical(name: str) -> str:
    name = name.lower().replace("_", "-")
    return _ALIASES.get(name, name)


def _default_expression(name: str) -> tuple[str, str]:
    module = name.replace("-", "_")
    return module, f"{module}.__version__"
