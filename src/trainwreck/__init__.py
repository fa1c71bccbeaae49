"""trainwreck: root-cause analysis for broken machine-learning runs."""

__version__ = "0.1.0"
