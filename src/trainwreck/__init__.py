"""trainwreck: root-cause analysis for broken machine-learning runs.

>>> from trainwreck import diagnose
>>> report = diagnose(["train.log"], symptoms="loss goes NaN after 300 steps")
>>> report.hypotheses[0].id, report.hypotheses[0].confidence
"""

from __future__ import annotations

__version__ = "0.1.0"

from trainwreck.diagnose import diagnose
from trainwreck.model import Diagnosis, Evidence, Hypothesis

__all__ = ["Diagnosis", "Evidence", "Hypothesis", "__version__", "diagnose"]
