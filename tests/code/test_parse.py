"""The tolerant parser: one-line frames, fragments cut from a block, cut-off snippets, prose."""

from __future__ import annotations

import ast
import warnings

from code_helpers import BATCH_1

from trainwreck.analyzers.code.parse import MAX_REPAIRS, parse, quiet_parse, repaired
from trainwreck.model import CodeSnippet


def _statements(snippet: CodeSnippet) -> list[tuple[int, str]]:
    """(line in the source, statement kind) of every parsed top-level statement."""
    return [
        (piece.where(node), type(node).__name__)
        for piece in parse(snippet)
        for node in piece.tree.body
    ]


def test_a_frames_block_header_alone_parses_as_a_loop() -> None:
    snippet = CodeSnippet(
        source="train.py", first_line=57, text="for step, batch in enumerate(loader):"
    )
    assert _statements(snippet) == [(57, "For")]


def test_a_fragment_climbing_out_of_its_block_is_parsed_in_windows() -> None:
    text = "        loss.backward()\n        optimizer.step()\n    scheduler.step()\n"
    snippet = CodeSnippet(source="train.py", first_line=40, text=text)
    assert _statements(snippet) == [(40, "Expr"), (41, "Expr"), (42, "Expr")]


def test_a_snippet_cut_off_mid_string_keeps_its_code_and_line_numbers() -> None:
    # transformers #29412 as posted: the last line's f-string is never closed.
    path = BATCH_1 / "transformers-438-causal-mask-slow-decode-29412" / "snippet.py"
    pieces = parse(CodeSnippet(source=str(path), text=path.read_text(encoding="utf-8")))
    assert len(pieces) == 1
    calls = [node for node in ast.walk(pieces[0].tree) if isinstance(node, ast.Call)]
    generate = next(
        c for c in calls if isinstance(c.func, ast.Attribute) and c.func.attr == "generate"
    )
    assert pieces[0].where(generate) == 4
    assert pieces[0].text(generate).startswith("generate_ids = model.generate(")


def test_prose_yields_nothing() -> None:
    # Two indented lines of an NCCL watchdog report (batch-1, bergson #444): not code.
    path = BATCH_1 / "pytorch-rank0-only-postprocess-nccl-timeout-444" / "train.log"
    assert parse(CodeSnippet(source=str(path), text=path.read_text(encoding="utf-8"))) == []


def _broken(lines: int) -> str:
    return "\n".join(["x = 1", *(f"this is prose number {n}" for n in range(lines))])


def test_repairs_stop_at_their_limit() -> None:
    assert repaired(_broken(MAX_REPAIRS - 1)) is not None
    assert repaired(_broken(MAX_REPAIRS)) is not None
    assert repaired(_broken(MAX_REPAIRS + 1)) is None


def test_past_the_repair_limit_windows_still_find_the_code() -> None:
    text = _broken(MAX_REPAIRS + 1) + "\ntotal_loss += loss\n"
    statements = _statements(CodeSnippet(source="notes.txt", text=text))
    assert (MAX_REPAIRS + 3, "AugAssign") in statements


def test_an_invalid_escape_in_the_users_code_raises_no_warning() -> None:
    # Python 3.12+ prints a SyntaxWarning for "\s" in a plain string on the user's terminal
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert quiet_parse('pattern = re.compile("\\s+")').body
