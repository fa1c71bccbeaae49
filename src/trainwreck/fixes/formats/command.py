"""Rewrite the launch commands in a script or command file: replace flags, append missing ones.

Edits are made on the text itself (a flag's value token is swapped, a new flag
goes after the last argument, before any redirection), so quoting, line
continuations and everything else the user wrote stay as they were. A flag is
never added twice: one the command already carries is only given its new value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from trainwreck.evidence.configs import is_launch_line
from trainwreck.fixes.formats.literals import Value, shell_word
from trainwreck.fixes.targets import normal_name

_TOKEN = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'|\S+")
_STOP = re.compile(r"^(?:\d?>>?|&>>?|\||\|\||&&|;|&|\d>&\d)")
# Programs whose flags another spelling of the same launcher also takes.
_SAME_CLI = {"vllm serve": ("vllm serve", "vllm.entrypoints.openai.api_server")}


@dataclass(frozen=True)
class FlagEdit:
    """Set `flag` (any spelling: `--max-model-len`, `max_model_len`) to `value`.

    `program` names the launcher the flag belongs to (`vllm serve`, `torchrun`);
    only a command of that program gets the flag appended when it lacks it.
    """

    flag: str
    value: Value
    program: str = ""


@dataclass(frozen=True)
class _Token:
    start: int
    end: int
    text: str


def one_line(command: str) -> str:
    """A command with its line continuations joined, as `parse_argv` reads it."""
    return " ".join(command.replace("\\\n", " ").split())


def command_blocks(text: str) -> list[tuple[int, int]]:
    """(start, end) character offsets of each launch command, continuation lines included."""
    blocks: list[tuple[int, int]] = []
    offset, start = 0, None
    for line in text.splitlines(keepends=True):
        if start is None:
            start = offset
        offset += len(line)
        if line.rstrip().endswith("\\"):
            continue
        command = text[start:offset]
        if not command.lstrip().startswith("#") and is_launch_line(one_line(command)):
            blocks.append((start, offset))
        start = None
    if start is not None and is_launch_line(one_line(text[start:])):
        blocks.append((start, len(text)))
    return blocks


def _tokens(command: str) -> list[_Token]:
    tokens = []
    for match in _TOKEN.finditer(command):
        if _STOP.match(match.group(0)) or match.group(0).startswith("#"):
            break
        if match.group(0) != "\\":
            tokens.append(_Token(match.start(), match.end(), match.group(0)))
    return tokens


def _is_value(token: _Token) -> bool:
    return not token.text.startswith("-")


def _set_flag(command: str, edit: FlagEdit) -> tuple[str, bool]:
    """Give every occurrence of the flag the new value; (command, whether it was there)."""
    wanted = normal_name(edit.flag)
    tokens = _tokens(command)
    spans: list[tuple[int, int, str]] = []
    found = False
    for index, token in enumerate(tokens):
        name, equals, inline = token.text.partition("=")
        if not name.startswith("-") or normal_name(name) != wanted:
            continue
        found = True
        if equals:
            lower = inline.lower() in ("true", "false")
            spans.append(
                (token.start, token.end, f"{name}={shell_word(edit.value, lower_bools=lower)}")
            )
            continue
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if following is not None and _is_value(following):
            lower = following.text in ("true", "false")
            word = shell_word(edit.value, lower_bools=lower)
            spans.append((following.start, following.end, word))
        elif edit.value is not True:
            spans.append((token.end, token.end, f" {shell_word(edit.value)}"))
    for start, end, replacement in sorted(spans, reverse=True):
        command = command[:start] + replacement + command[end:]
    return command, found


def _runs(command: str, program: str) -> bool:
    return bool(program) and any(name in command for name in _SAME_CLI.get(program, (program,)))


def _append(command: str, edit: FlagEdit) -> str:
    tokens = _tokens(command)
    if not tokens or edit.value is False or edit.value is None:
        return command
    spelled = edit.flag if edit.flag.startswith("-") else f"--{edit.flag}"
    addition = f" {spelled}" if edit.value is True else f" {spelled} {shell_word(edit.value)}"
    end = tokens[-1].end
    return command[:end] + addition + command[end:]


def rewrite_commands(text: str, edits: list[FlagEdit]) -> str:
    """`text` with each launch command's flags set; a flag no command has is appended
    to the first command of its program, if there is one."""
    blocks = command_blocks(text)
    commands = [text[start:end] for start, end in blocks]
    for edit in edits:
        present = False
        for index, command in enumerate(commands):
            commands[index], found = _set_flag(command, edit)
            present = present or found
        if not present:
            runs = [i for i, command in enumerate(commands) if _runs(command, edit.program)]
            if runs:
                commands[runs[0]] = _append(commands[runs[0]], edit)
    pieces, cursor = [], 0
    for (start, end), command in zip(blocks, commands, strict=True):
        pieces += [text[cursor:start], command]
        cursor = end
    return "".join([*pieces, text[cursor:]])
