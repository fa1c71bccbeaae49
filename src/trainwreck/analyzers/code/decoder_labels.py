"""An encoder-decoder model fed its own labels, unshifted, as the decoder's input.

Given `labels`, a Hugging Face seq2seq model (BART, T5, Marian) builds its decoder
input itself by shifting the labels one place right behind the start token. Passing
`decoder_input_ids=labels` (or the labels with -100 put back to pad) skips that
shift: at each position the decoder already sees the token it is asked to predict,
so training learns to copy, the loss falls to about zero within a few hundred steps,
and generate(), which has no labels to copy, returns nothing useful.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, keyword, names_in

# Calls that shift a sequence by one place: the decoder input is then the right one.
_SHIFTS = ("shift_tokens_right", "_shift_right", "prepare_decoder_input_ids_from_labels")


def _from_labels(tree: Tree, value: ast.expr, labels: str) -> bool:
    """The labels themselves, or a name assigned from them without a shift or a slice."""
    expressions = [value]
    if isinstance(value, ast.Name):
        expressions += tree.values_of(value.id)
    for expression in expressions:
        text = ast.unparse(expression)
        if any(shift in text for shift in _SHIFTS) or _sliced(expression):
            return False
        if text == labels or labels in names_in(expression):
            return True
    return False


def _sliced(expression: ast.expr) -> bool:
    """`target[:, :-1]`: a slice of the labels, the hand-made shift."""
    return isinstance(expression, ast.Subscript) and any(
        isinstance(node, ast.Slice) for node in ast.walk(expression.slice)
    )


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        decoder_input = keyword(call, "decoder_input_ids")
        labels = keyword(call, "labels")
        if decoder_input is None or labels is None:
            continue
        label_name = ast.unparse(labels)
        if _from_labels(tree, decoder_input, label_name):
            hits.append(tree.hit(call, decoder_input=ast.unparse(decoder_input)))
    return hits


DETECTOR = Detector(
    name="decoder_inputs_are_labels",
    title="The decoder is fed the labels themselves, unshifted, so it learns to copy them",
    category="wrong_output",
    explain=(
        "{where}: `decoder_input_ids={decoder_input}` passes the labels unshifted beside "
        "`labels=`: each decoder position already sees the token it must predict"
    ),
    find=_find,
)
