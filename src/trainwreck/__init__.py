"""trainwreck: root-cause analysis for broken machine-learning runs.

>>> from trainwreck import diagnose
>>> report = diagnose(["train.log"], symptoms="loss goes NaN after 300 steps")
>>> report.hypotheses[0].id, report.hypotheses[0].confidence
"""

from __future__ import annotations

import importlib
import typing

from trainwreck.version import __version__

if typing.TYPE_CHECKING:
    from trainwreck.model import Diagnosis, Evidence, Hypothesis
    from trainwreck.pipeline import diagnose
    from trainwreck.recorder.watch import watch

__all__ = ["Diagnosis", "Evidence", "Hypothesis", "__version__", "diagnose", "watch"]
_EXPORTS = {
    "diagnose": "trainwreck.pipeline",
    "Diagnosis": "trainwreck.model",
    "Evidence": "trainwreck.model",
    "Hypothesis": "trainwreck.model",
    "watch": "trainwreck.recorder.watch",  # imports torch, so only on first use
}


def __getattr__(name: str) -> typing.Any:
    """The public names load on first use: the CLI imports this package for every command,
    and `trainwreck --help` should not load the whole pipeline."""
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
