"""Parameters of the rerun checks: the run's command, and the failure's signature.

A crash has a generic check that can fail: run the same command again and look for
the same error in what it prints. The signature is a regex searched line by line:
the knowledge-base page's own regex that matched the error (it spells the failure
without the run's numbers), else the final exception's type and first message line
with its numbers widened, so a rerun that fails the same way on another batch or
address still matches it. A local hang's signature is the line the run printed before
it stopped moving, so only lines the run prints count there, not a stack dump's frames.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from trainwreck.evidence.configs import is_launch_line, joined_commands
from trainwreck.evidence.literals import compiled
from trainwreck.fixes.scripts.parameters import Context, Parameter
from trainwreck.kb import load
from trainwreck.model import ExceptionRecord
from trainwreck.redact import PLACEHOLDER_PREFIX

# What `trainwreck run` writes beside the run's output: the command, shell-quoted, on one
# line. The recorder sits above this layer and takes the name from here (its COMMAND_FILE).
RECORDED_COMMAND = "command.txt"
# A shell prompt or `set -x` mark pasted before a command: `$ torchrun ...`, `+ python ...`,
# or py-spy dump's process line: `Process 46930: /usr/bin/python -u main.py ...`.
_PROMPT = re.compile(r"^\s*(?:[$>+]|Process \d+:)\s+")
# A stack frame as py-spy (`    wait (torch/utils/file_baton.py:42)`) or Python prints it.
_STACK_FRAME = re.compile(r'^\s+\S+ \(\S+:\d+\)\s*$|^\s*File "[^"]+", line \d+')
# Enough of a message to name the failure; past it messages print values (tensors, shapes,
# long paths) that say nothing more about which failure it is.
MESSAGE_CHARS = 200
# The parts of a message that change between two runs failing the same way: addresses,
# numbers, the secrets trainwreck redacted from the evidence, and shell variables a message
# quotes unexpanded (which the script would otherwise refuse as a value left unexpanded).
_VARYING = re.compile(
    rf"(0x[0-9a-fA-F]+|\d+|{re.escape(PLACEHOLDER_PREFIX)}[\w-]+>|\$\{{?[A-Za-z_]\w*\}}?)"
)
# Long enough for start-up, model loading and the first training steps, where a wrong setting
# or a code mistake crashes (our crash cases end in a checkpoint load, a forward or backward,
# or a batch); a run that crashed hours in needs --timeout-seconds past that point.
TIMEOUT_SECONDS = 1800.0
# A local hang (a stale build lock, a stuck DataLoader worker) stops a run in its first
# minutes: start-up, an extension build (minutes) and the first batches fit in ten.
HANG_SECONDS = 600.0


def rerun_parameters(ctx: Context) -> list[Parameter]:
    """The command to rerun, the signature its output must not show, and the timeout."""
    return [
        command_parameter(ctx, "the command that crashed"),
        _signature(
            ctx,
            _quoted(ctx),
            "no error in the evidence to tell this failure from another: "
            "any non-zero exit counts as the failure",
        ),
        Parameter(
            "timeout_seconds",
            TIMEOUT_SECONDS,
            f"{TIMEOUT_SECONDS / 60:g} minutes: start-up, model loading and the first steps; if "
            "your run crashed later than that, raise it past the point where it crashed",
        ),
    ]


def hang_parameters(ctx: Context) -> list[Parameter]:
    """The command to rerun, the line it printed before it hung, and the timeout."""
    printed = [(where, text) for where, text in _quoted(ctx) if not _STACK_FRAME.search(text)]
    return [
        command_parameter(ctx, "the command that hung"),
        _signature(
            ctx,
            printed,
            "no line in the evidence shows where the run hung: the script refuses to run until "
            "you pass --signature, a regex of the last line your hung run printed",
        ),
        Parameter(
            "timeout_seconds",
            HANG_SECONDS,
            f"{HANG_SECONDS / 60:g} minutes: start-up, an extension build and the first batches; "
            "if your run hung later than that, raise it past the point where it hung",
        ),
    ]


def command_parameter(ctx: Context, what: str) -> Parameter:
    """The command `trainwreck run` recorded, else the first launch line a log printed;
    `what` says which run it is (the command that crashed, that hung)."""
    recorded, launched = [], []
    for source, lines in _lines_by_source(ctx).items():
        for number, text in joined_commands(lines):
            if PurePath(source).name == RECORDED_COMMAND:
                recorded.append((f"{source}:{number}", text))
            elif is_launch_line(text):
                launched.append((f"{source}:{number}", text))
    for where, text in [*recorded, *launched]:
        command = _PROMPT.sub("", text).strip().strip("`")
        if PLACEHOLDER_PREFIX in command:
            return Parameter(
                "command",
                "",
                f"{where}: the launch command holds a secret trainwreck redacted; "
                "give the command after --",
            )
        if command:
            return Parameter("command", command, f"{where}: {what}")
    return Parameter(
        "command",
        "",
        "no launch command in the evidence: give yours after -- "
        "(python verify.py -- python train.py --your-flags)",
    )


def _lines_by_source(ctx: Context) -> dict[str, list[tuple[int, str]]]:
    by_source: dict[str, list[tuple[int, str]]] = {}
    for line in ctx.evidence.lines:
        by_source.setdefault(line.source, []).append((line.line, line.text))
    return by_source


def _quoted(ctx: Context) -> list[tuple[str, str]]:
    """The log lines the hypothesis quotes (not the code files it points into), with where."""
    code_sources = {snippet.source for snippet in ctx.evidence.code if snippet.origin == "file"}
    return [
        (f"{ref.source}:{ref.line}", ref.text)
        for ref in ctx.hypothesis.evidence
        if ref.source not in code_sources
    ]


def _signature(ctx: Context, quoted: list[tuple[str, str]], missing: str) -> Parameter:
    """The page's regex that matched the error, else the final exception, else nothing
    (`missing` says what the script does then).

    The error's own lines are searched before the `quoted` lines, and the heaviest
    signature that matches them wins: the most specific spelling of the failure.
    """
    final = ctx.evidence.final_exception
    page = load().get(ctx.hypothesis.id)
    signatures = sorted(page.signatures, key=lambda s: -s.weight) if page is not None else []
    regexes = [signature.regex for signature in signatures if signature.regex]
    for texts in (_exception_lines(final) if final is not None else [], quoted):
        for regex in regexes:
            where = next((where for where, text in texts if compiled(regex).search(text)), None)
            if where is not None:
                return Parameter(
                    "signature", regex, f"kb:{ctx.hypothesis.id}: its signature matching {where}"
                )
    if final is not None:
        return Parameter(
            "signature",
            _exception_regex(final),
            f"{final.source}:{final.message_ref_line}: the final exception, numbers widened",
        )
    return Parameter("signature", "", missing)


def _exception_lines(record: ExceptionRecord) -> list[tuple[str, str]]:
    """The exception as a log prints it, `Type: message`, one entry per line."""
    where = f"{record.source}:{record.message_ref_line}"
    return [(where, text) for text in f"{record.type}: {record.message}".splitlines()]


def _exception_regex(record: ExceptionRecord) -> str:
    """`(?:[\\w.]+\\.)?Type: message`: the type with or without its module (versions
    move classes between modules), then the message's first line, numbers widened."""
    name = record.type.rsplit(".", 1)[-1]
    message = (record.message.strip().splitlines() or [""])[0][:MESSAGE_CHARS].rstrip()
    head = rf"(?:[\w.]+\.)?{re.escape(name)}"
    if not message:
        return rf"{head}(?::|$)"
    pieces = _VARYING.split(message)
    widened = "".join(
        _widened(piece) if index % 2 else re.escape(piece) for index, piece in enumerate(pieces)
    )
    return f"{head}: {widened}"


def _widened(varying: str) -> str:
    """The regex for one varying part: any address, any number, any other word."""
    if varying.startswith("0x"):
        return r"0x[0-9a-fA-F]+"
    if varying.isdigit():
        return r"\d+"
    return r"\S+"
