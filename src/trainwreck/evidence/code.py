"""Python code pasted into a log or a description, kept as code instead of as prose.

Issue threads and job logs carry code three ways: fenced Markdown blocks
(```python ... ```), interactive sessions (`>>> `), and blocks indented by four
spaces. A traceback's own source lines are indented too, but they belong to
their frames (tracebacks.py), so an indented run right after a `File "..."`
line is not pasted code. In a description an inline `span` counts as well
("`total_loss += loss`"). Nothing here parses or runs the code: the code
analyzers parse it, tolerantly, and a block that is not Python yields nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from trainwreck.model import CodeOrigin, CodeSnippet

_FENCE = re.compile(r"^\s*(?P<mark>`{3,}|~{3,})\s*(?P<tag>[\w+-]*)")
# Tags of fenced blocks that hold Python; an untagged block may too, if it looks like code.
_PYTHON_TAGS = frozenset({"python", "py", "python3", "pycon", "ipython"})
_PROMPT = re.compile(r"^\s*(?:>>>|\.\.\.)(?: |$)")
_PROMPT_START = re.compile(r"^\s*>>>(?: |$)")
_PROMPT_WIDTH = 4
_INDENTED = re.compile(r"^(?: {4}|\t)")
# A traceback frame, as Python and as pytest print it: the indented line after it is its source.
_FRAME_LINE = re.compile(r'^\s*(?:File "[^"]+", line \d+|\S+\.py:\d+: in \S+)')
_CARET = re.compile(r"^\s*[~^]+\s*$")
_EXCEPTION_LINE = re.compile(r"^\s*(?:[A-Za-z_][\w.]*)?(?:Error|Exception|Warning)\b:")
# A statement the indented run continues: a call left open, or a block header.
_OPENS = re.compile(r"[(\[{:,]\s*$")
_CLOSES = re.compile(r"^[)\]}]")
# An indented run this short is a wrapped log message as often as it is code.
MIN_INDENTED_LINES = 2
_INLINE = re.compile(r"`(?P<code>[^`\n]{3,300})`")
# What a line of Python looks like, as opposed to a log message: a statement keyword,
# an assignment, or a call standing alone.
_CODE_SHAPE = re.compile(
    r"^\s*(?:(?:for|while|if|elif|with|def|class|return|import|from|try|except)\b"
    r"|[\w.\[\]'\"]+\s*(?:[-+*/@%]?=)(?!=)\s*\S"
    r"|[\w.]+\(.*\)\s*(?:#.*)?$)"
)

Numbered = tuple[int, str]


def looks_like_code(lines: Iterable[str]) -> bool:
    """Whether any line has the shape of a Python statement."""
    return any(_CODE_SHAPE.match(line) for line in lines)


def _fenced(lines: Sequence[Numbered], start: int) -> tuple[int, list[Numbered] | None]:
    """The block a fence opens at `start` (None unless Python), and where scanning resumes."""
    opening = _FENCE.match(lines[start][1])
    assert opening is not None
    tag = opening.group("tag").lower()
    body: list[Numbered] = []
    index = start + 1
    while index < len(lines) and lines[index][0] == lines[index - 1][0] + 1:
        if lines[index][1].lstrip().startswith(opening.group("mark")):
            index += 1
            break
        body.append(lines[index])
        index += 1
    python = tag in _PYTHON_TAGS or (tag == "" and looks_like_code(text for _, text in body))
    return index, body if python and body else None


def _run(lines: Sequence[Numbered], start: int, belongs: re.Pattern[str]) -> int:
    """The end of a run of consecutive lines that match `belongs` (or are blank)."""
    index = start + 1
    while (
        index < len(lines)
        and lines[index][0] == lines[index - 1][0] + 1
        and (belongs.match(lines[index][1]) or not lines[index][1].strip())
    ):
        index += 1
    return index


def _prompted(block: list[Numbered]) -> list[Numbered]:
    return [(number, text.lstrip()[_PROMPT_WIDTH:]) for number, text in block]


def _indented(lines: Sequence[Numbered], start: int, end: int) -> list[Numbered] | None:
    """An indented run as code, with the statement it continues and the bracket closing it.

    Not a traceback's source line (the run follows a frame line), not a traceback
    with its exception, and shaped like Python.
    """
    before = lines[start - 1] if start > 0 else None
    if before is not None and _FRAME_LINE.match(before[1]):
        return None
    block = list(lines[start:end])
    texts = [text for _, text in block]
    if any(_CARET.match(text) or _EXCEPTION_LINE.match(text) for text in texts):
        return None
    if sum(1 for text in texts if text.strip()) < MIN_INDENTED_LINES or not looks_like_code(texts):
        return None
    if before is not None and before[0] == block[0][0] - 1 and _OPENS.search(before[1]):
        block.insert(0, before)
    after = lines[end] if end < len(lines) else None
    if after is not None and after[0] == block[-1][0] + 1 and _CLOSES.match(after[1]):
        block.append(after)
    return block


def blocks(lines: Sequence[Numbered]) -> Iterator[list[Numbered]]:
    """Fenced, prompted and indented code blocks among numbered lines, in order."""
    index = 0
    while index < len(lines):
        text = lines[index][1]
        if _FENCE.match(text):
            index, block = _fenced(lines, index)
        elif _PROMPT_START.match(text):
            end = _run(lines, index, _PROMPT)
            block, index = _prompted(list(lines[index:end])), end
        elif _INDENTED.match(text) and text.strip():
            end = _run(lines, index, _INDENTED)
            block, index = _indented(lines, index, end), end
        else:
            block, index = None, index + 1
        if block:
            yield block


def _snippet(source: str, block: list[Numbered], origin: CodeOrigin) -> CodeSnippet:
    return CodeSnippet(
        source=source,
        first_line=block[0][0],
        text="\n".join(text for _, text in block),
        origin=origin,
    )


def from_lines(source: str, lines: Iterable[Numbered], origin: CodeOrigin) -> list[CodeSnippet]:
    """The code blocks in one source's retained lines (line numbers must be ascending)."""
    return [_snippet(source, block, origin) for block in blocks(list(lines))]


def from_symptoms(text: str) -> list[CodeSnippet]:
    """Code blocks and inline code spans in the user's description of the failure."""
    numbered = list(enumerate(text.splitlines(), start=1))
    found = from_lines("symptoms", numbered, "symptoms")
    for number, line in numbered:
        for span in _INLINE.finditer(line):
            code = span.group("code").strip()
            if looks_like_code([code]):
                found.append(
                    CodeSnippet(source="symptoms", first_line=number, text=code, origin="symptoms")
                )
    return found
