"""trainwreck: root-cause analysis for broken machine-learning runs.

>>> from trainwreck import diagnose
>>> report = diagnose(["train.log"], symptoms="loss goes NaN after 300 steps")
>>> report.hypotheses[0].id, report.hypotheses[0].confidence
"""

from __future__ import annotations

import importlib
import typing

__version__ = "0.1.0"

from trainwreck.diagnose import diagnose

if typing.TYPE_CHECKING:
    from trainwreck.model import Diagnosis, Evidence, Hypothesis

__all__ = ["Diagnosis", "Evidence", "Hypothesis", "__version__", "diagnose"]
_MODELS = ("Diagnosis", "Evidence", "Hypothesis")


def __getattr__(name: str) -> typing.Any:
    """The models load with pydantic on first use, not with every CLI command."""
    if name in _MODELS:
        return getattr(importlib.import_module("trainwreck.model"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
