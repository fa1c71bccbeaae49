"""`trainwreck run`: run a training command and keep what a diagnosis needs in one directory.

What a crashed run printed, the exact command, the installed packages, the code's git state
and the configs it read are usually gone or scattered by the time someone asks why it broke.
Recording them at launch makes the run directory a complete input for `trainwreck diagnose`.
No torch here: the command runs as a child process, whatever it is.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import BinaryIO

from trainwreck.env.live import read_live
from trainwreck.errors import UsageError, why_not_read
from trainwreck.fixes.scripts.rerun import RECORDED_COMMAND

DEFAULT_ROOT = Path("trainwreck-runs")
OUTPUT_LOG = "output.log"  # the child's stdout and stderr, line by line, as they came
COMMAND_FILE = RECORDED_COMMAND  # where the verification scripts read the command back from
# `name==version` lines; the evidence reader takes a file named env*.txt for a listing.
ENVIRONMENT_FILE = "environment.txt"
# Markdown, because the run-directory walk skips .md files: a diff quotes source code and
# earlier logs, whose text must not be read as what this run printed.
GIT_FILE = "git.md"
CONFIG_DIR = "configs"
CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".toml")
FORWARDED = (signal.SIGINT, signal.SIGTERM)
SIGNAL_STATUS_BASE = 128  # the shell's convention: a death by signal N exits with 128 + N


@dataclass(frozen=True)
class Recorded:
    """Where a run was recorded and the exit status to pass on (128 + N for signal N)."""

    directory: Path
    status: int


def record(
    argv: Sequence[str],
    out: Path | None = None,
    stdout: BinaryIO | None = None,
    stderr: BinaryIO | None = None,
) -> Recorded:
    """Run `argv` with its output tee'd to the terminal and `out/output.log`, and record it."""
    if not argv:
        raise UsageError("nothing to run: give the command after --")
    if shutil.which(argv[0]) is None:
        raise UsageError(f"command not found: {argv[0]}")
    directory = _run_directory(out)
    env = dict(os.environ, PYTHONFAULTHANDLER="1")  # a child's hard crash prints its stacks
    with (directory / OUTPUT_LOG).open("wb") as log:
        try:
            child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        except OSError as error:
            raise UsageError(f"cannot run {argv[0]}: {why_not_read(error)}") from error
        with _forwarding(child):
            lock = threading.Lock()
            tees = [
                threading.Thread(target=_tee, args=(pipe, terminal, log, lock), daemon=True)
                for pipe, terminal in (
                    (child.stdout, stdout or sys.stdout.buffer),
                    (child.stderr, stderr or sys.stderr.buffer),
                )
            ]
            for tee in tees:
                tee.start()
            _write_records(directory, argv)
            returncode = child.wait()
        for tee in tees:
            tee.join()
    status = SIGNAL_STATUS_BASE - returncode if returncode < 0 else returncode
    return Recorded(directory, status)


def _run_directory(out: Path | None) -> Path:
    """`out`, or a new `trainwreck-runs/<UTC time>`; never one that already holds a run."""
    if out is None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        out, n = DEFAULT_ROOT / stamp, 1
        while out.exists():  # two runs started within one second
            n += 1
            out = DEFAULT_ROOT / f"{stamp}-{n}"
    if (out / OUTPUT_LOG).exists():
        raise UsageError(f"{out} already holds a recorded run; choose another --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot create {out}: {why_not_read(error)}") from error
    return out


def _tee(pipe: BinaryIO, terminal: BinaryIO, log: BinaryIO, lock: threading.Lock) -> None:
    """Copy whole lines, so the two streams interleave in the log without splitting a line."""
    for line in iter(pipe.readline, b""):
        terminal.write(line)
        terminal.flush()
        with lock:
            log.write(line)
            log.flush()


def _write_records(directory: Path, argv: Sequence[str]) -> None:
    (directory / COMMAND_FILE).write_text(shlex.join(argv) + "\n", encoding="utf-8")
    packages = read_live().packages.values()
    listing = sorted(f"{p.display_name or p.name}=={p.version}" for p in packages)
    (directory / ENVIRONMENT_FILE).write_text("\n".join(listing) + "\n", encoding="utf-8")
    git = _git_state()
    if git is not None:
        (directory / GIT_FILE).write_text(git, encoding="utf-8")
    _copy_configs(directory / CONFIG_DIR, argv[1:])


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], capture_output=True, text=True, check=False)
    except OSError:  # git is not installed
        return None
    return done.stdout if done.returncode == 0 else None


def _git_state() -> str | None:
    """The commit, `git status --porcelain` and the diff against it; None outside a repository."""
    commit = _git("rev-parse", "HEAD")
    if commit is None:
        return None
    status = _git("status", "--porcelain") or ""
    diff = _git("diff", "HEAD") or ""
    return (
        f"# git state at launch\n\ncommit: {commit.strip()}\n\n"
        f"## git status --porcelain\n\n```text\n{status}```\n\n"
        f"## git diff HEAD\n\n```diff\n{diff}```\n"
    )


def _copy_configs(target: Path, args: Sequence[str]) -> None:
    """Copy each existing file an argument names (`cfg.yaml`, `--config=cfg.yaml`) by suffix."""
    for arg in args:
        path = Path(arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg)
        if path.suffix.lower() not in CONFIG_SUFFIXES or not path.is_file():
            continue
        copy, n = target / path.name, 1
        while copy.exists():  # same name from two folders: keep the name, the sniffer reads it
            n += 1
            copy = target / str(n) / path.name
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)


@contextmanager
def _forwarding(child: subprocess.Popen[bytes]) -> Iterator[None]:
    """Pass SIGINT and SIGTERM on to the child while it runs, so it can shut down cleanly.

    A Ctrl-C at the terminal already reaches the child, which shares our foreground process
    group; forwarding it too would interrupt the child's own cleanup, so that one is not.
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; the child gets signals directly
        return

    def forward(signum: int, _frame: FrameType | None) -> None:
        if signum == signal.SIGINT and _terminal_sent_it():
            return
        if child.poll() is None:
            child.send_signal(signum)

    previous = {signum: signal.signal(signum, forward) for signum in FORWARDED}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _terminal_sent_it() -> bool:
    """True when we run in the foreground of a terminal, whose Ctrl-C signals the whole group."""
    try:
        return os.tcgetpgrp(sys.stdin.fileno()) == os.getpgrp()
    except (OSError, ValueError, AttributeError):  # no terminal, or stdin replaced
        return False
