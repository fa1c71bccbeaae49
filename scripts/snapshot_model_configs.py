"""Write the keys each model config class accepts, per transformers release, read statically.

A model's config.json may carry keys its config class does not know: transformers
stores them as plain attributes and nothing reads them, so a misspelled
`num_attention_head` silently does nothing. This script reads, with `ast` and
without importing anything, each release wheel's `configuration_<model>.py` for
the model types below and `configuration_utils.py` for the keys every config has.

    pip download --no-deps transformers==4.46.3 -d wheels/
    python scripts/snapshot_model_configs.py wheels/transformers-*.whl

Output: src/trainwreck/verify/data/model_config_keys.json, one entry per release:
{"base": [...], "models": {"llama": {"class": "LlamaConfig", "keys": [...]}}}.
A key is an `__init__` parameter, a class-level annotation (the 5.x dataclass
style), a name read with `kwargs.pop("x")` / `kwargs.get("x")`, or an
`attribute_map` alias.
"""

from __future__ import annotations

import ast
import json
import sys
import zipfile
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src/trainwreck/verify/data/model_config_keys.json"
# The model types of the bundled model configs (src/trainwreck/memory/models).
MODEL_TYPES = (
    "bert", "falcon", "gemma2", "gpt2", "gpt_neox", "llama", "mistral", "mixtral", "phi3",
    "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "roberta", "t5",
)  # fmt: skip
BASE_CLASSES = ("PretrainedConfig", "PreTrainedConfig")


def _keys(node: ast.ClassDef) -> set[str]:
    keys: set[str] = set()
    for item in node.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            keys.add(item.target.id)
        if (
            isinstance(item, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "attribute_map" for t in item.targets)
            and isinstance(item.value, ast.Dict)
        ):
            keys |= {k.value for k in item.value.keys if isinstance(k, ast.Constant)}
        if isinstance(item, ast.FunctionDef) and item.name == "__init__":
            arguments = item.args.args + item.args.kwonlyargs
            keys |= {a.arg for a in arguments if a.arg != "self"}
            for call in ast.walk(item):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr in ("pop", "get")
                    and isinstance(call.func.value, ast.Name)
                    and call.func.value.id == "kwargs"
                    and call.args
                    and isinstance(call.args[0], ast.Constant)
                ):
                    keys.add(str(call.args[0].value))
    return {key for key in keys if isinstance(key, str) and not key.startswith("__")}


def _config_class(source: str, model_type: str) -> tuple[str, set[str]] | None:
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if (
                isinstance(item, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "model_type" for t in item.targets)
                and isinstance(item.value, ast.Constant)
                and item.value.value == model_type
            ):
                return node.name, _keys(node)
    return None


def read_wheel(path: Path) -> tuple[str, dict[str, object]]:
    version = path.name.split("-")[1]
    with zipfile.ZipFile(path) as wheel:
        utils = wheel.read("transformers/configuration_utils.py").decode()
        base: set[str] = set()
        for node in ast.parse(utils).body:
            if isinstance(node, ast.ClassDef) and node.name in BASE_CLASSES:
                base |= _keys(node)
        models: dict[str, object] = {}
        for model_type in MODEL_TYPES:
            name = f"transformers/models/{model_type}/configuration_{model_type}.py"
            if name not in wheel.namelist():
                continue
            found = _config_class(wheel.read(name).decode(), model_type)
            if found:
                models[model_type] = {"class": found[0], "keys": sorted(found[1])}
    return version, {"base": sorted(base), "models": models}


def main(wheels: list[str]) -> None:
    data = json.loads(OUT.read_text()) if OUT.exists() else {}
    for wheel in wheels:
        version, entry = read_wheel(Path(wheel))
        data[version] = entry
    ordered = dict(sorted(data.items(), key=lambda item: [int(p) for p in item[0].split(".")]))
    OUT.write_text(json.dumps(ordered, indent=1, sort_keys=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
