"""Compile the knowledge base for run time: validated pages, regex literal sets, model index.

Writes src/trainwreck/kb/data/compiled.json (every page validated with the full
schema, regexes compiled once here), src/trainwreck/evidence/data/literals.json
(the literal sets of every regex the log scanner and the matcher search for),
src/trainwreck/memory/data/models.json (the bundled models' index.yaml, as JSON) and
src/trainwreck/cases/data/bundled_words.json (the case store's evidence lines split
into their identifying words). Run it after editing a page, the model index or the
case store; a test fails while any of them is stale, and `trainwreck kb lint` says so
for the pages.
"""

from __future__ import annotations

import sys

import yaml

from trainwreck import analyzers, context
from trainwreck.cases.records import BUNDLED, read_records
from trainwreck.cases.split import WORDS_TABLE, dump_table
from trainwreck.evidence.literals import TABLE, table_text
from trainwreck.kb import PATTERNS_DIR, load_from, signature_regexes
from trainwreck.kb.compiled import COMPILED, dump
from trainwreck.memory.config import COMPILED_INDEX, INDEX, dump_index


def artifacts() -> dict[str, str]:
    """Each artifact's path and the text it should hold."""
    knowledge = load_from(PATTERNS_DIR)
    searched = (
        *signature_regexes(knowledge.patterns),
        *knowledge.keep_parts((*analyzers.KEEP, *context.KEEP)),
    )
    compiled = dump(knowledge.patterns, knowledge.sources, knowledge.version, PATTERNS_DIR)
    models = dump_index(yaml.safe_load(INDEX.read_text(encoding="utf-8")))
    return {
        str(COMPILED): compiled,
        str(TABLE): table_text(searched),
        str(COMPILED_INDEX): models,
        str(WORDS_TABLE): dump_table(read_records(BUNDLED)),
    }


def main() -> int:
    for path, text in artifacts().items():
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
