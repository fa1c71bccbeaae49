"""Write the text `trainwreck --help` prints without importing Click (trainwreck/cli/__init__.py).

Run after changing a command's summary or the group's docstring; tests/test_cli.py fails
while the file differs from what Click renders.
"""

from __future__ import annotations

from pathlib import Path

from trainwreck.cli import HELP_FILE
from trainwreck.cli.app import help_text


def main() -> None:
    Path(HELP_FILE).write_text(help_text(), encoding="utf-8")
    print(f"wrote {HELP_FILE}")


if __name__ == "__main__":
    main()
