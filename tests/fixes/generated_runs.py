"""Generated runs: real signature lines from the KB beside configs that set the fix's keys.

Each run takes a pattern's `examples.fires` lines (real log text) as its log and
writes the settings its fixes change into the user's own files, with values
drawn around the recommended one: equal to it, past it in either direction, or
another choice. The engine then has to fill, verify and drop changes against a
real config, which is where a fix can come out pointless or backwards.
Seeded, so every run of the suite checks the same 200 reports.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from trainwreck.fixes.targets import target
from trainwreck.kb import KnowledgeBase
from trainwreck.kb.schema import Pattern, PatternChange
from trainwreck.model import Scalar

_WORDS = ("auto", "no", "steps", "epoch", "sdpa", "eager", "fp16", "cpu", "none")
_MODELS = ("Qwen/Qwen2.5-0.5B-Instruct", "meta-llama/Llama-3.1-8B", "mistralai/Mistral-7B-v0.1")


@dataclass(frozen=True)
class GeneratedRun:
    pattern: str
    directory: Path


def _value_near(change: PatternChange, rng: random.Random) -> Scalar | list[Scalar]:
    """A current value for the setting: the recommended one, past it, or another choice."""
    after = change.after
    if isinstance(after, bool):
        return rng.choice((True, False))
    if isinstance(after, int | float):
        factor = rng.choice((0.25, 0.5, 1, 2, 4))
        value = after * factor if after else rng.choice((0, 1, 8))
        return int(value) if isinstance(after, int) else round(float(value), 4)
    if isinstance(after, list):
        return rng.choice((after, after[:1], ["q_proj", "v_proj"]))
    return rng.choice((after, *_WORDS)) if isinstance(after, str) and "{" not in after else 8


def _settings(pattern: Pattern, rng: random.Random) -> list[tuple[PatternChange, object]]:
    changes = [c for fix in pattern.fixes for c in fix.changes]
    return [(c, _value_near(c, rng)) for c in changes if rng.random() < 0.8]


def _nested(key: str, value: object, into: dict[str, object]) -> None:
    *parents, last = key.split(".")
    for part in parents:
        child = into.setdefault(part, {})
        if not isinstance(child, dict):
            return
        into = child
    into[last] = value


def _write_files(
    directory: Path, settings: list[tuple[PatternChange, object]], rng: random.Random
) -> list[str]:
    """The user's files: a YAML training config, a DeepSpeed JSON, a launch script."""
    yaml_lines = ["# generated training config", "seed: 42  # keep runs comparable"]
    deepspeed: dict[str, object] = {"train_micro_batch_size_per_gpu": rng.choice((1, 2, 4))}
    flags: list[str] = []
    for change, value in settings:
        where = target(change.path)
        if where.kind == "flag":
            if any(line.split()[0] == where.name for line in flags):
                continue  # a user's command line sets a flag once, even when two fixes change it
            word = (
                "true"
                if value is True
                else json.dumps(value)
                if not isinstance(value, str)
                else value
            )
            flags.append(f"  {where.name} {word} \\" if value is not True else f"  {where.name} \\")
        elif where.kind == "key" and where.owner.startswith("ds_config"):
            _nested(where.name.removeprefix("ds_config."), value, deepspeed)
        elif where.kind == "key":
            yaml_lines.append(f"{where.leaf}: {json.dumps(value)}  # set by hand")
    (directory / "train_config.yaml").write_text("\n".join(yaml_lines) + "\n", encoding="utf-8")
    (directory / "ds_config.json").write_text(
        json.dumps(deepspeed, indent=rng.choice((2, 4))) + "\n", encoding="utf-8"
    )
    model = rng.choice(_MODELS)
    script = [f"vllm serve {model} \\", *flags, f"  --port {rng.randint(8000, 8100)}"]
    (directory / "launch.sh").write_text("\n".join(script) + "\n", encoding="utf-8")
    return ["train_config.yaml", "ds_config.json", "launch.sh"]


def generated_runs(
    kb: KnowledgeBase, root: Path, count: int = 200, seed: int = 20
) -> Iterator[GeneratedRun]:
    """`count` run folders under `root`, cycling through every pattern that has fires lines."""
    rng = random.Random(seed)
    patterns = [p for p in kb.patterns if p.examples.fires]
    rng.shuffle(patterns)
    for number in range(count):
        pattern = patterns[number % len(patterns)]
        directory = root / f"run{number:03d}-{pattern.id}"
        directory.mkdir()
        lines = rng.sample(pattern.examples.fires, k=min(2, len(pattern.examples.fires)))
        (directory / "train.log").write_text("\n".join(lines) + "\n", encoding="utf-8")
        _write_files(directory, _settings(pattern, rng), rng)
        yield GeneratedRun(pattern.id, directory)
