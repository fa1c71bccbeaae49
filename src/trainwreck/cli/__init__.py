"""The `trainwreck` command's entry: `--help` from a file, everything else through Click.

The Click group lives in `cli/app.py`; this package's own module stays free of Click
so that importing it (the console script does) costs no more than the help file.

Importing Click alone costs four times an empty interpreter's start, so the top-level
help (what a new user types first) is printed from the text Click rendered at build
time (`scripts/build_help.py`; a test fails when it is stale). Click renders at most 80
columns, so a narrower terminal gets Click's own rendering. Every other invocation
loads the CLI, whose commands load on demand.
"""

from __future__ import annotations

import os
import shutil
import sys

HELP_FLAGS = (["--help"], ["-h"])
# Click's help is never wider than this (its formatter's max_content_width default).
HELP_COLUMNS = 80
HELP_FILE = os.path.join(os.path.dirname(__file__), "data", "help.txt")


def run() -> None:
    """`trainwreck` on the command line and `python -m trainwreck`."""
    if sys.argv[1:] in HELP_FLAGS and shutil.get_terminal_size().columns >= HELP_COLUMNS:
        with open(HELP_FILE, encoding="utf-8") as text:
            sys.stdout.write(text.read())
        return
    from trainwreck.cli.app import main

    main()
