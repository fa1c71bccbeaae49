"""`python -m trainwreck` runs the CLI."""

from trainwreck.cli import run

run()
