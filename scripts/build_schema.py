"""Write the JSON report's schema, generated from the Diagnosis model.

Writes src/trainwreck/report/diagnosis.schema.json (see trainwreck.report.contract).
Run it after changing a model the report holds; a test fails while the file is stale.
"""

from __future__ import annotations

import sys

from trainwreck.report.contract import SCHEMA_PATH, schema_text


def main() -> int:
    SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
