"""Lines to paste for changes no user file holds: exports, flags, a Python call, keys."""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from trainwreck.fixes.formats.literals import python_literal, shell_word, shown
from trainwreck.fixes.targets import target
from trainwreck.model import Change, ConfigBlock

UNVERIFIED = "[unverified key]"


def _marked(line: str, change: Change) -> str:
    return line if change.verified else f"{line}  # {UNVERIFIED}"


def _env_line(change: Change) -> str:
    name = target(change.path).name
    if change.after is None:
        return f"unset {name}"
    return f"export {name}={shlex.quote(shown(change.after))}"


def _flag_line(change: Change) -> str:
    flag = target(change.path).name
    return flag if change.after is True else f"{flag} {shell_word(change.after)}"


def _is_call(owner: str) -> bool:
    """`TrainingArguments`, `torch.utils.data.DataLoader`: a class whose arguments we set."""
    last = owner.rsplit(".", 1)[-1]
    return last[:1].isupper() and last.isidentifier()


def _python_block(owner: str, changes: Sequence[Change]) -> str:
    arguments = [
        _marked(f"    {target(c.path).leaf}={python_literal(c.after)},", c) for c in changes
    ]
    return "\n".join([f"{owner}(", *arguments, ")"])


def standalone_blocks(changes: Sequence[Change]) -> tuple[ConfigBlock, ...]:
    """Blocks for `changes` by where each is set, in the order env, flags, code, keys."""
    env = [_marked(_env_line(c), c) for c in changes if target(c.path).kind == "env"]
    blocks = [ConfigBlock(format="env", text="\n".join(env))] if env else []
    programs: dict[str, list[str]] = {}
    calls: dict[str, list[Change]] = {}
    keys: list[str] = []
    for change in changes:
        where = target(change.path)
        if where.kind == "flag":
            programs.setdefault(where.owner, []).append(_marked(_flag_line(change), change))
        elif where.kind == "key" and _is_call(where.owner):
            calls.setdefault(where.owner, []).append(change)
        elif where.kind == "key":
            keys.append(_marked(f"{change.path}: {shown(change.after)}", change))
    for program, lines in programs.items():
        heading = f"# add to your `{program}` command" if program else "# command-line flags"
        blocks.append(ConfigBlock(format="flags", text="\n".join([heading, *lines])))
    blocks += [
        ConfigBlock(format="python", text=_python_block(owner, owned))
        for owner, owned in calls.items()
    ]
    if keys:
        blocks.append(ConfigBlock(format="keys", text="\n".join(keys)))
    return tuple(blocks)
