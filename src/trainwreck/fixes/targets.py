"""Where a change's setting lives, read from its path.

KB paths name the place a setting is made: `env.NAME` (also `env:NAME` or a bare
upper-case `NAME`) is an environment variable; `cli.vllm serve --max-num-seqs`,
`cli.--no_half_vae` or `--max_seq_length` is a command-line flag of a program;
anything else (`TrainingArguments.bf16`, `ds_config.zero_optimization.stage`) is a
config key, whose last component is what a user's file or argv spells.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

ChangeKind = Literal["env", "flag", "key"]
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
_DEEPSPEED_KEYS = ("zero_optimization", "train_micro_batch_size_per_gpu", "zero_allow_")
_FLAG = re.compile(r"(?:^|\s|\.)(--?[A-Za-z][\w.-]*)$")


@dataclass(frozen=True)
class Target:
    """A change's path taken apart: its kind, the name to set, and who reads it."""

    kind: ChangeKind
    name: str  # the variable, the flag (with its dashes) or the dotted key
    owner: str  # `vllm serve` for a flag, `TrainingArguments` for a key, "" when none

    @property
    def leaf(self) -> str:
        """The setting's own name, normalised: `max_model_len`, `per_device_train_batch_size`."""
        return normal_name(self.name.rsplit(".", 1)[-1] if self.kind == "key" else self.name)


def normal_name(name: str) -> str:
    """`--max-model-len` and `max_model_len` name the same setting."""
    return name.lstrip("-").replace("-", "_")


def target(path: str) -> Target:
    """Parse a change path; see the module docstring for the forms."""
    if path.startswith(("env.", "env:")):
        return Target("env", path[4:], "")
    if _ENV_NAME.fullmatch(path):
        return Target("env", path, "")
    flag = _FLAG.search(path)
    if flag and (path.startswith(("cli.", "-"))):
        program = path[: flag.start(1)].removeprefix("cli.").strip(" .")
        return Target("flag", flag.group(1), program)
    owner, _, _ = path.rpartition(".")
    return Target("key", path, owner)


def is_deepspeed(values: Mapping[str, object]) -> bool:
    """Whether flat config keys are a DeepSpeed config's (`ds_config.*` paths live there)."""
    return any(key.startswith(_DEEPSPEED_KEYS) for key in values)


def find_key(values: Mapping[str, object], where: Target) -> str | None:
    """The flat key of a user's config that is this setting, or None.

    The longest suffix of the path wins (`zero_optimization.stage`), else a last
    component no other key shares (`per_device_train_batch_size` for
    `TrainingArguments.per_device_train_batch_size`). DeepSpeed keys are looked
    for in a DeepSpeed config only, and only they are, so `--stage sft` is never
    ZeRO's stage. Environment variables live in no config.
    """
    if where.kind == "env" or is_deepspeed(values) != where.owner.startswith("ds_config"):
        return None
    if where.kind == "key":
        parts = where.name.split(".")
        for start in range(len(parts)):
            if ".".join(parts[start:]) in values:
                return ".".join(parts[start:])
    same_leaf = [key for key in values if normal_name(key.rsplit(".", 1)[-1]) == where.leaf]
    return same_leaf[0] if len(same_leaf) == 1 else None
