"""scripts/snapshot_schemas.py reads fields from source text alone (nothing imported)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "snapshot_schemas.py"

SOURCE = """
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal, Optional, Union

class Strategy(str, Enum):
    NO = "no"
    STEPS = "steps"

@dataclass
class TrainingArguments:
    output_dir: str = field(metadata={"help": "Where to write."})
    eval_strategy: Union[Strategy, str] = field(default="no", metadata={"help": "When."})
    evaluation_strategy: Optional[str] = field(
        default=None, metadata={"help": "Deprecated. Use `eval_strategy` instead"}
    )
    precision: Literal["fp16", "bf16"] = "bf16"
    steps: int = field(default_factory=lambda: 3)
    internal: int = field(default=0, init=False)
"""


def test_script_writes_fields_types_defaults_choices_and_renames(tmp_path: Path) -> None:
    tree = tmp_path / "src" / "transformers"
    tree.mkdir(parents=True)
    (tree / "training_args.py").write_text(SOURCE, encoding="utf-8")
    out = tmp_path / "out"
    subprocess.run(
        [sys.executable, str(SCRIPT), "transformers", "--source", str(tmp_path),
         "--version", "9.9.9", "--out", str(out)],
        check=True, capture_output=True,
    )  # fmt: skip
    data = json.loads((out / "transformers" / "9.9.9.json").read_text())
    fields = data["classes"]["TrainingArguments"]["fields"]
    assert set(fields) == {
        "output_dir",
        "eval_strategy",
        "evaluation_strategy",
        "precision",
        "steps",
    }
    assert fields["eval_strategy"]["choices"] == ["no", "steps"]
    assert fields["eval_strategy"]["default"] == "no"
    assert fields["evaluation_strategy"]["replaced_by"] == "eval_strategy"
    assert fields["precision"]["choices"] == ["fp16", "bf16"]
    assert fields["steps"]["default_expr"].startswith("lambda")
    assert (
        "default" not in fields["output_dir"] and fields["output_dir"]["help"] == "Where to write."
    )
    assert data["source"]["repo"] == "huggingface/transformers"
