"""Terminal control in logs (issue 16 item 5, mcp16): colour codes are stripped before
matching, so a coloured traceback matches its signature as the plain one does, and no
control sequence or character reaches a report raw."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from evidence_helpers import run_broken

from trainwreck.evidence.collect import collect
from trainwreck.pipeline import diagnose
from trainwreck.redact import redact
from trainwreck.redact.terminal import neutralise, strip_sequences
from trainwreck.report import render

# What the colored-traceback / IPython approach does: the traceback through pygments'
# traceback lexer and terminal formatter; log records coloured as colorlog does, with
# the reset `tput sgr0` emits on xterm-256color (ESC ( B ESC [ m); an OSC 8 link from rich.
COLOURED_CRASH = """
import logging, os, sys, traceback
import torch
from pygments import highlight
from pygments.formatters import TerminalFormatter
from pygments.lexers import PythonTracebackLexer
from rich.console import Console

COLOUR = os.environ["COLOUR"] == "1"
RED, RESET = ("\\x1b[31m", "\\x1b(B\\x1b[m") if COLOUR else ("", "")
console = Console(file=sys.stdout, force_terminal=COLOUR, no_color=not COLOUR, width=200)

def excepthook(kind, value, tb):
    text = "".join(traceback.format_exception(kind, value, tb))
    if COLOUR:
        text = highlight(text, PythonTracebackLexer(), TerminalFormatter())
    sys.stderr.write(text)

sys.excepthook = excepthook
logging.basicConfig(format=f"{RED}%(levelname)s{RESET} %(message)s", level=logging.INFO)
logging.info("epoch 0 step 1 loss 2.31 lr 0.001")
console.print("[link=https://pytorch.org/docs/stable/]docs[/link] for step 1", highlight=True)
sys.stdout.flush()
torch.nn.Linear(16, 4)(torch.randn(8, 32))
"""
# Every family a line can carry: OSC 52 (clipboard), OSC 8 (link), BEL, backspaces, a lone
# ESC, 8-bit CSI, DEL, a bidi override, a DCS string, a screen clear and cursor moves.
HOSTILE = (
    "\x1b]52;c;cHduZWQ=\x07\x1b]8;;https://evil.example/\x1b\\RuntimeError\x1b]8;;\x1b\\: "
    "\x9b31mmat1 and mat2 shapes cannot be multiplied (8x32 and 16x4)\x07 ok\x08\x08 "
    "\x7f \u202eevil\u202c \x1bPdcs-payload\x1b\\\x1b[2J\x1b[H\x1b[1A"
)
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture(scope="module")
def crash_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    logs = {}
    for name, flag in (("plain", "0"), ("coloured", "1")):
        folder = tmp_path_factory.mktemp(name)
        logs[name] = run_broken(COLOURED_CRASH, folder, env={"COLOUR": flag})
    return logs


def test_the_coloured_log_is_really_coloured(crash_logs: dict[str, Path]) -> None:
    coloured = crash_logs["coloured"].read_text()
    assert "\x1b(B\x1b[m" in coloured and "\x1b]8;" in coloured
    assert re.search(r"\x1b\[[0-9;]*mRuntimeError", coloured)
    assert "\x1b" not in crash_logs["plain"].read_text()


def test_a_coloured_traceback_matches_as_the_plain_one(crash_logs: dict[str, Path]) -> None:
    plain, coloured = (diagnose([str(crash_logs[name])]) for name in ("plain", "coloured"))
    assert plain.hypotheses[0].id == coloured.hypotheses[0].id == "shape-mismatch-matmul"
    assert [h.id for h in coloured.hypotheses] == [h.id for h in plain.hypotheses]
    evidence = [[e.text for e in h.evidence] for h in coloured.hypotheses]
    assert evidence == [[e.text for e in h.evidence] for h in plain.hypotheses]
    # Every line as the plain run printed it, the `tput sgr0` reset (ESC ( B) included.
    lines = [
        [line.text.replace(str(log.parent), "RUN") for line in collect([str(log)]).lines]
        for log in crash_logs.values()
    ]
    assert lines[0] == lines[1] and any("loss 2.31" in text for text in lines[1])


def test_no_control_sequence_reaches_a_report(crash_logs: dict[str, Path], tmp_path: Path) -> None:
    text = crash_logs["plain"].read_text()
    hostile = tmp_path / "osc\x1b]52;c;bmFtZQ==\x07name.log"
    hostile.write_text(text.replace(text.splitlines()[-1], HOSTILE))
    diagnosis = diagnose([str(hostile)])
    assert diagnosis.hypotheses[0].id == "shape-mismatch-matmul"
    for fmt in ("markdown", "json", "html"):
        report = render(diagnosis, fmt)
        assert not RAW_CONTROL.search(report), (fmt, RAW_CONTROL.findall(report))
        for payload in ("cHduZWQ", "bmFtZQ", "evil.example", "dcs-payload", "u001b", "u0007"):
            assert payload not in report, (fmt, payload)
    markdown = render(diagnosis, "markdown")
    assert "RuntimeError: \\x9b31mmat1" not in markdown  # 8-bit CSI removed, not escaped
    assert "(8x32 and 16x4)\\x07 ok\\x08\\x08 \\x7f \\u202eevil\\u202c" in markdown


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[1;31mRuntimeError\x1b[0m: x", "RuntimeError: x"),  # SGR colour
        ("\x1b[38;2;255;0;0mred\x1b(B\x1b[m", "red"),  # truecolour, `tput sgr0`
        ("a\x1b[2K\x1b[1A\x1b[?25lb", "ab"),  # erase line, cursor up, hide cursor
        ("\x1b]8;;https://x.example\x1b\\text\x1b]8;;\x1b\\", "text"),  # OSC 8, ST
        ("\x1b]52;c;aGk=\x07after", "after"),  # OSC 52, BEL-terminated
        ("\x9d8;;https://x\x9clink", "link"),  # 8-bit OSC and ST
        ("\x9b31mred", "red"),  # 8-bit CSI
        ("\x1bPq#0;2;0;0;0\x1b\\x", "x"),  # DCS (sixel)
        ("\x1b]0;title never ends", ""),  # unterminated: to the end of the line
        ("\x1b7saved\x1b8", "saved"),  # save/restore cursor
    ],
)
def test_each_sequence_family_is_removed(raw: str, shown: str) -> None:
    assert strip_sequences(raw) == shown
    assert neutralise(raw) == shown


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("ring\x07", "ring\\x07"),
        ("shown\x08\x08\x08\x08hide", "shown\\x08\\x08\\x08\\x08hide"),
        ("over\rwrite", "over\\x0dwrite"),
        ("del\x7f", "del\\x7f"),
        ("\u202eevil\u202c", "\\u202eevil\\u202c"),
        ("nul\x00", "nul\\x00"),
        ("train\udcff.log", "train\\udcff.log"),  # an undecodable byte of a file name
        ("\ud83d\ude00", "\\ud83d\\ude00"),  # a JSON surrogate pair left unjoined
    ],
)
def test_other_controls_are_shown_escaped(raw: str, shown: str) -> None:
    assert neutralise(raw) == shown
    assert neutralise(shown) == shown  # idempotent


def test_ordinary_text_is_untouched() -> None:
    text = "loss\t2.31\r\nstep 5 | 45%|████▌ | ok: ünïcode, עברית, 中文\n"
    assert neutralise(text) == text == strip_sequences(text)


def test_a_secret_split_by_a_colour_code_is_still_redacted() -> None:
    token = "hf_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ012345"
    out = redact(f"logged in with \x1b[1m{token[:10]}\x1b[0m{token[10:]}")
    assert token[10:] not in out and "<redacted:" in out
