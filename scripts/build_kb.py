"""Compile the knowledge base for run time: validated pages and regex literal sets.

Writes src/trainwreck/kb/data/compiled.json (every page validated with the full
schema, regexes compiled once here) and src/trainwreck/evidence/data/literals.json
(the literal sets of every regex the log scanner and the matcher search for). Run it
after editing a page; a test fails, and `trainwreck kb lint` says so, while either
file is stale.
"""

from __future__ import annotations

import sys

from trainwreck import analyzers, context
from trainwreck.evidence.literals import TABLE, table_text
from trainwreck.kb import PATTERNS_DIR, load_from, signature_regexes
from trainwreck.kb.compiled import COMPILED, dump


def artifacts() -> dict[str, str]:
    """Each artifact's path and the text it should hold."""
    knowledge = load_from(PATTERNS_DIR)
    searched = (
        *signature_regexes(knowledge.patterns),
        *knowledge.keep_parts((*analyzers.KEEP, *context.KEEP)),
    )
    compiled = dump(knowledge.patterns, knowledge.sources, knowledge.version, PATTERNS_DIR)
    return {str(COMPILED): compiled, str(TABLE): table_text(searched)}


def main() -> int:
    for path, text in artifacts().items():
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
