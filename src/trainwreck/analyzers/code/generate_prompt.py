"""A decoder-only model's generate() output read as if it held only the new tokens.

For a decoder-only model (GPT-2, Llama, Mistral, ...) `model.generate(input_ids, ...)`
returns each sequence as prompt + continuation: the first input_ids.shape[1]
positions are the prompt. Counting `len(out[0])` as the number of generated tokens
therefore exceeds max_new_tokens by the prompt's length, and decoding `out[0]`
prints the prompt again in front of every answer (then scored as if the model had
written it). Slicing the prompt off (`out[:, input_ids.shape[1]:]`) stays quiet,
and so do encoder-decoder models (T5, BART), whose output holds only the decoder
side.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, keyword, last

# Encoder-decoder classes and families: their generate() output does not repeat the prompt.
_SEQ2SEQ = re.compile(r"Seq2Seq|ConditionalGeneration|\bT5|\bBart|\bMarian|\bPegasus|mT5|\bmbart")
_DECODES = frozenset({"decode", "batch_decode"})


def _generated_names(tree: Tree) -> set[str]:
    """Names bound to `model.generate(...)` given token ids (a keyword, a name or **inputs)."""
    found: set[str] = set()
    for node in tree.nodes:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        call = node.value
        if last(call) != "generate" or not isinstance(call.func, ast.Attribute):
            continue
        ids = keyword(call, "input_ids") is not None or any(k.arg is None for k in call.keywords)
        if ids or (call.args and "ids" in dotted(call.args[0])):
            found.update(dotted(target) for target in node.targets)
    return found


def _sliced(tree: Tree, name: str) -> bool:
    """`out[:, n:]`, `out[0][n:]`, `out[0, n:]`: the prompt is cut off somewhere."""
    for node in tree.nodes:
        if not isinstance(node, ast.Subscript):
            continue
        base = node.value.value if isinstance(node.value, ast.Subscript) else node.value
        if dotted(base) != name:
            continue
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(isinstance(p, ast.Slice) and p.lower is not None for p in parts):
            return True
    return False


def _use(node: ast.AST, names: set[str]) -> tuple[str, str] | None:
    """('counts', name) for len(out[0]) / out.shape[1]; ('decodes', name) for decode(out[0])."""
    if isinstance(node, ast.Call) and node.args:
        argument = node.args[0]
        row = argument.value if isinstance(argument, ast.Subscript) else argument
        if dotted(row) in names:
            if last(node) == "len" and isinstance(argument, ast.Subscript):
                return ("counts", dotted(row))
            if last(node) in _DECODES:
                return ("decodes", dotted(row))
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "shape"
        and dotted(node.value.value) in names
    ):
        return ("counts", dotted(node.value.value))
    return None


def _finder(does: str) -> Callable[[Tree], list[Hit]]:
    def find(tree: Tree) -> list[Hit]:
        if _SEQ2SEQ.search(tree.source):
            return []
        names = {name for name in _generated_names(tree) if not _sliced(tree, name)}
        hits = []
        for node in tree.nodes:
            if names and (use := _use(node, names)) is not None and use[0] == does:
                hits.append(tree.hit(node, output=use[1]))
        return hits

    return find


COUNTED = Detector(
    name="generate_output_counted_with_prompt",
    title="A decoder-only generate() output counted as new tokens with its prompt still in it",
    category="wrong_output",
    explain=(
        "{where}: `{code}` counts `{output}` from generate() whole: for a decoder-only model each "
        "returned sequence starts with the prompt, so the count exceeds max_new_tokens by the "
        "prompt's length"
    ),
    find=_finder("counts"),
)
DECODED = Detector(
    name="generate_output_decoded_with_prompt",
    title="A decoder-only generate() output decoded with its prompt still in front",
    category="wrong_output",
    explain=(
        "{where}: `{code}` decodes `{output}` from generate() whole: for a decoder-only model the "
        "text starts with the prompt, so the answer repeats it (and is scored with it)"
    ),
    find=_finder("decodes"),
)
