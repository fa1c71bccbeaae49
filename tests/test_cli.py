"""The CLI as users run it: a real subprocess, real files, real exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from helpers import assert_one_line_error, run
from trainwreck.cli.app import COMMANDS, cli

CASES = Path(__file__).parent / "cases"
# A real CUDA OOM traceback (pytorch/pytorch#35901); any case log would do.
OOM_LOG = next((CASES / "pytorch-oom-fragmentation-35901").glob("*.log"))


def test_missing_path_is_one_line_exit_2(tmp_path: Path) -> None:
    result = run("diagnose", str(tmp_path / "nope.log"))
    assert_one_line_error(result)
    assert "nope.log" in result.stderr


def test_directory_with_nothing_readable_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "weights.bin").write_bytes(bytes(range(256)) * 64)
    assert_one_line_error(run("diagnose", str(tmp_path)))


@pytest.mark.parametrize("contents", [{}, {"README.md": "# notes\n"}, {".git/HEAD": "ref\n"}])
def test_empty_run_directory_says_what_was_looked_for(
    tmp_path: Path, contents: dict[str, str]
) -> None:
    run_dir = tmp_path / "emptydir"
    for name, text in contents.items():
        (run_dir / name).parent.mkdir(parents=True, exist_ok=True)
        (run_dir / name).write_text(text)
    run_dir.mkdir(exist_ok=True)
    result = run("diagnose", str(run_dir))
    assert_one_line_error(result)
    assert "give a log file" not in result.stderr  # a run directory was given
    assert f"{run_dir}: the directory has no readable logs" in result.stderr
    assert "*.log" in result.stderr and "trainer_state.json" in result.stderr


def test_binary_file_is_exit_2(tmp_path: Path) -> None:
    blob = tmp_path / "model.safetensors"
    blob.write_bytes(b"\x00\x01\x02\xff" * 4096)
    assert_one_line_error(run("diagnose", str(blob)))


def test_empty_stdin_is_exit_2() -> None:
    assert_one_line_error(run("diagnose", "-", stdin=b""))


def test_unknown_option_is_exit_2() -> None:
    assert_one_line_error(run("diagnose", "--no-such-flag"))


def test_good_file_beside_binary_is_still_diagnosed(tmp_path: Path) -> None:
    log = OOM_LOG
    (tmp_path / "train.log").write_bytes(log.read_bytes())
    (tmp_path / "blob.bin").write_bytes(b"\x00\xff" * 4096)
    result = run("diagnose", str(tmp_path), "--format", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["hypotheses"]
    assert any("blob.bin" in warning for warning in report["warnings"])


def test_piped_traceback_is_diagnosed() -> None:
    log = OOM_LOG
    result = run("diagnose", "-", "--format", "json", stdin=log.read_bytes())
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["hypotheses"]


def test_html_written_to_file(tmp_path: Path) -> None:
    log = OOM_LOG
    out = tmp_path / "report.html"
    result = run("diagnose", str(log), "--format", "html", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_text().lstrip().lower().startswith("<!doctype html>")


def test_diagnose_does_not_import_torch() -> None:
    log = OOM_LOG
    code = (
        "import sys; from trainwreck.cli.app import main\n"
        "try:\n    main(['diagnose', sys.argv[1], '-f', 'json'])\n"
        "except SystemExit:\n    pass\n"
        "heavy = {'torch', 'matplotlib', 'mcp'} & set(sys.modules)\n"
        "assert not heavy, f'{heavy} imported'\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(log)], capture_output=True, check=False
    )
    assert result.returncode == 0, result.stderr.decode()


def test_help_loads_no_command_module() -> None:
    """`--help` lists the commands from the group's table, importing none of them."""
    code = (
        "import sys; from trainwreck.cli.app import main\n"
        "try:\n    main(['--help'])\n"
        "except SystemExit:\n    pass\n"
        "print(' '.join(m for m in sys.modules if m.startswith('trainwreck.')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True)
    loaded = set(result.stdout.decode().splitlines()[-1].split())
    assert "trainwreck.cli" in loaded
    assert not {f"trainwreck.cli.{module}" for module, _, _ in COMMANDS.values()} & loaded
    assert "trainwreck.pipeline" not in loaded


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_listed_summary_is_the_commands_own(name: str) -> None:
    """The table `--help` prints from is what each command, once loaded, says of itself."""
    command = cli.get_command(click.Context(cli), name)
    assert command is not None and command.name == name
    assert command.get_short_help_str(limit=1000) == COMMANDS[name][2]


def test_an_unknown_command_is_exit_2() -> None:
    assert_one_line_error(run("diagnosis", "x.log"))


@pytest.mark.parametrize(
    "args",
    [
        ("version",),
        ("kb", "list"),
        ("kb", "search", "out of memory"),
        ("--help",),
        ("diagnose", "--help"),
    ],
)
def test_commands_succeed(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


def test_kb_show_unknown_page_is_exit_2() -> None:
    assert_one_line_error(run("kb", "show", "no-such-page"))


def test_kb_lint_passes_on_the_packaged_kb() -> None:
    result = run("kb", "lint", cwd=Path(__file__).parent.parent)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 problem(s)" in result.stdout


def test_the_help_file_is_what_click_renders() -> None:
    """`trainwreck --help` prints a file built from Click's rendering without importing
    Click; it goes stale when a summary or the group's docstring changes."""
    from trainwreck.cli import HELP_FILE
    from trainwreck.cli.app import help_text

    stale = "stale: run python scripts/build_help.py"
    assert Path(HELP_FILE).read_text(encoding="utf-8") == help_text(), stale


_CLICK_MODULES = "print(sorted(m for m in sys.modules if m.startswith('click')))"


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_without_click_prints_clicks_text(flag: str) -> None:
    program = f"import sys; sys.argv = ['trainwreck', '{flag}']; from trainwreck.cli import run"
    fast = subprocess.run(
        [sys.executable, "-c", f"{program}; run(); {_CLICK_MODULES}"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "120"},
    )
    shown = run(flag)
    assert shown.returncode == 0
    assert fast.stdout.endswith("[]\n")  # Click never imported
    assert fast.stdout[: -len("[]\n")] == shown.stdout


def test_a_narrow_terminal_gets_clicks_own_wrapping() -> None:
    def shown(program: list[str]) -> str:
        env = {**os.environ, "COLUMNS": "60"}
        done = subprocess.run(program, capture_output=True, text=True, check=True, env=env)
        return done.stdout

    entry = shown([sys.executable, "-m", "trainwreck", "--help"])
    click_itself = shown(
        [
            sys.executable,
            "-c",
            "import sys; sys.argv = ['trainwreck', '--help']; "
            "from trainwreck.cli.app import main; main()",
        ]
    )
    assert entry == click_itself
    assert entry != run("--help").stdout  # rewrapped for 60 columns, not the 80-column file
