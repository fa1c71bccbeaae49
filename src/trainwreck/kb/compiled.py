"""The knowledge base compiled at build time: pages validated once, read back as JSON.

`scripts/build_kb.py` writes `data/compiled.json` from the YAML pages; a test fails
while it is stale, and `kb lint` says so. Reading it parses no YAML and compiles no
regex, and nothing is written to the user's disk at run time (no cache to poison).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from trainwreck.kb.schema import TRUSTED, Pattern

COMPILED = Path(__file__).parent / "data" / "compiled.json"
REBUILD = "run python scripts/build_kb.py"


class _Artifact(BaseModel):
    """The artifact as written: parsed and validated in one pass by pydantic's own JSON
    reader, about 35 ms less per run than json.loads and then validating (4 MB of pages)."""

    version: str
    sources: dict[str, str]
    patterns: list[Pattern]


def dump(patterns: tuple[Pattern, ...], sources: dict[str, Path], version: str, root: Path) -> str:
    """The artifact's text: version, where each id's page lives (relative), the pages."""
    return json.dumps(
        {
            "version": version,
            "sources": {name: path.relative_to(root).as_posix() for name, path in sources.items()},
            "patterns": [p.model_dump(mode="json", exclude_defaults=True) for p in patterns],
        },
        ensure_ascii=False,
        indent=0,
    )


def parse(text: str, root: Path) -> tuple[tuple[Pattern, ...], dict[str, Path], str]:
    """Pages, their source files under `root`, and the KB version, from the artifact."""
    data = _Artifact.model_validate_json(text, context=TRUSTED)
    sources = {name: root / relative for name, relative in data.sources.items()}
    return tuple(data.patterns), sources, data.version


def stale(version: str) -> bool:
    """Whether the packaged artifact was built from other pages than `version` names."""
    try:
        built = json.loads(COMPILED.read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        return True
    return bool(built != version)
