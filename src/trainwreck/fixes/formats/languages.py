"""Which language a fix's command is written in, so a report fences it as that language.

Pages list shell commands and, for code fixes, Python lines (`import jax.numpy as
jnp`, `with Join([ddp_model]):`); a Python line fenced as bash reads as a shell
command to paste into a terminal.
"""

from __future__ import annotations

import ast
import re
from typing import Literal

from trainwreck.analyzers.code.parse import quiet_parse

Language = Literal["python", "bash"]
# Statements a shell line never parses as (`nvidia-smi` parses as a subtraction).
_PYTHON_STATEMENTS = (
    ast.Import,
    ast.ImportFrom,
    ast.With,
    ast.For,
    ast.While,
    ast.If,
    ast.Try,
    ast.FunctionDef,
    ast.ClassDef,
    ast.Assign,
    ast.AugAssign,
    ast.AnnAssign,
)
# A first word only Python starts a line with (for code that does not parse as a whole;
# not `for`, which a shell loop also starts with).
_PYTHON_START = re.compile(r"^(?:(?:import|from \S+ import|def|class|with)\b|@)", re.M)


def command_language(command: str) -> Language:
    """`python` for a line (or lines) of Python, else `bash`."""
    try:
        tree = quiet_parse(command)
    except SyntaxError:
        return "python" if _PYTHON_START.search(command) else "bash"
    for node in tree.body:
        if isinstance(node, _PYTHON_STATEMENTS):
            return "python"
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            return "python"
    return "bash"


def by_language(commands: tuple[str, ...]) -> list[tuple[Language, str]]:
    """Consecutive commands of one language joined, each run with its language."""
    runs: list[tuple[Language, str]] = []
    for command in commands:
        language = command_language(command)
        if runs and runs[-1][0] == language:
            runs[-1] = (language, f"{runs[-1][1]}\n{command}")
        else:
            runs.append((language, command))
    return runs
