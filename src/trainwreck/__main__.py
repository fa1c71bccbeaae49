"""`python -m trainwreck` runs the CLI."""

from trainwreck.entry import run

run()
