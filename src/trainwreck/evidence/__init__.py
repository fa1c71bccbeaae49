"""Raw inputs -> Evidence: logs, tracebacks, exits, configs, environment, setup.

`collect()` is the one entry point. Readers never raise on bad input: what
cannot be read becomes a `Gap` and everything else is still read.
"""

from __future__ import annotations

from trainwreck.evidence.collect import collect

__all__ = ["collect"]
