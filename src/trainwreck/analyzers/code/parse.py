"""A tolerant Python parser for what users paste: fragments, cut-off files, one-line frames.

`ast.parse` wants a whole module. Evidence holds less: a traceback frame's one
line (`for batch in loader:` with no body), a loop copied from the middle of a
function (indented more than what follows it), an issue snippet cut off
mid-string. Three repairs, cheapest first: dedent; replace the line each
SyntaxError names with a placeholder statement that keeps the block structure
and the line numbers (`if True:` when an indented body follows, `pass`
otherwise), up to MAX_REPAIRS times; and, failing that, parse statement windows
(runs of lines that start at one indentation) one by one. The code is only
parsed, never compiled or run.
"""

from __future__ import annotations

import ast
import textwrap
import warnings
from dataclasses import dataclass
from typing import Literal, overload

from trainwreck.model import CodeSnippet

# A pasted fragment rarely has more broken lines than this; past it the text is
# more likely prose than code, and windows salvage what is code more cheaply.
MAX_REPAIRS = 10
_PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError)


@dataclass(frozen=True)
class Parsed:
    """One parsed piece of a snippet: its tree, and how its lines map to the source.

    Line `n` of the tree is line `first_line + n - 1` of `source`.
    """

    tree: ast.Module
    source: str
    first_line: int
    lines: tuple[str, ...]

    def where(self, node: ast.AST) -> int:
        """The line of the user's source a node starts on."""
        return self.first_line + getattr(node, "lineno", 1) - 1

    def text(self, node: ast.AST) -> str:
        """The source line a node starts on, stripped."""
        number = getattr(node, "lineno", 1)
        return self.lines[number - 1].strip() if 0 < number <= len(self.lines) else ""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _placeholder(lines: list[str], index: int) -> str:
    """A statement at the broken line's indentation that keeps any body below it a body."""
    own = _indent(lines[index])
    following = next((line for line in lines[index + 1 :] if line.strip()), "")
    statement = "if True:" if following and _indent(following) > own else "pass"
    return " " * own + statement


@overload
def quiet_parse(text: str) -> ast.Module: ...
@overload
def quiet_parse(text: str, mode: Literal["eval"]) -> ast.Expression: ...
def quiet_parse(text: str, mode: Literal["exec", "eval"] = "exec") -> ast.mod:
    """`ast.parse` without its warnings: text that may hold an invalid escape ("\\s" in a
    plain string: the user's code, a shell command being told from Python) is not ours to
    warn about, and Python 3.12+ would print it on the user's terminal. Raises SyntaxError."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", (SyntaxWarning, DeprecationWarning))
        return ast.parse(text, mode=mode)


def _try(text: str) -> ast.Module | SyntaxError | None:
    try:
        return quiet_parse(text)
    except SyntaxError as error:
        return error
    except _PARSE_ERRORS:
        return None


def repaired(text: str) -> ast.Module | None:
    """Parse dedented text, replacing up to MAX_REPAIRS broken lines; None if it stays broken."""
    lines = textwrap.dedent(text.expandtabs(4)).splitlines()
    if lines and lines[-1].rstrip().endswith(":"):
        lines.append(" " * (_indent(lines[-1]) + 4) + "pass")  # a frame's block header alone
    for _ in range(MAX_REPAIRS + 1):
        result = _try("\n".join(lines))
        if not isinstance(result, SyntaxError):
            return result
        index = (result.lineno or 0) - 1
        if not 0 <= index < len(lines) or lines[index].strip() in ("pass", "if True:"):
            return None
        lines[index] = _placeholder(lines, index)
    return None


# Lines at a statement's own indentation that still belong to it.
_CONTINUES = (")", "]", "}", "else", "elif", "except", "finally")


def _starts_window(line: str, start_indent: int, window: list[str]) -> bool:
    if not line.strip():
        return False
    if not window or _indent(line) < start_indent:
        return True
    decorated = all(text.lstrip().startswith("@") for text in window if text.strip())
    return (
        _indent(line) == start_indent and not line.lstrip().startswith(_CONTINUES) and not decorated
    )


def windows(text: str) -> list[tuple[int, str]]:
    """(offset, text) of each statement window: a statement and the lines that continue it.

    A window ends where a line starts at its first line's indentation or less, so a
    fragment cut from inside a block splits where it climbs out of the block.
    """
    runs: list[tuple[int, list[str]]] = []
    start_indent = 0
    for offset, line in enumerate(text.expandtabs(4).splitlines()):
        if _starts_window(line, start_indent, runs[-1][1] if runs else []):
            runs.append((offset, []))
            start_indent = _indent(line)
        if runs:
            runs[-1][1].append(line)
    return [(offset, "\n".join(body)) for offset, body in runs]


def _piece(snippet: CodeSnippet, tree: ast.Module, offset: int, text: str) -> Parsed | None:
    """A parsed piece, unless repairs left nothing but placeholders (prose, not code)."""
    if all(_placeholder_only(statement) for statement in tree.body):
        return None
    return Parsed(tree, snippet.source, snippet.first_line + offset, tuple(text.splitlines()))


def _placeholder_only(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Pass):
        return True
    return isinstance(statement, ast.If) and all(
        _placeholder_only(inner) for inner in statement.body
    )


def parse(snippet: CodeSnippet) -> list[Parsed]:
    """The snippet's parsed pieces: the whole of it when it can be repaired, else its windows."""
    whole = repaired(snippet.text)
    if whole is not None:
        piece = _piece(snippet, whole, 0, textwrap.dedent(snippet.text.expandtabs(4)))
        return [piece] if piece else []
    pieces = []
    for offset, text in windows(snippet.text):
        tree = repaired(text)
        piece = _piece(snippet, tree, offset, textwrap.dedent(text)) if tree else None
        if piece is not None:
            pieces.append(piece)
    return pieces
