"""An array grown by concatenation inside a loop: quadratic time and memory churn.

`np.append`, `np.concatenate`, `np.vstack`/`hstack`, `torch.cat` and `pd.concat` never grow
their input in place: each call allocates a new array and copies everything accumulated so
far. Called once per item with the accumulator as an input, the loop copies 1 + 2 + ... + n
items, so each iteration is slower than the last. Collecting the pieces in a list and
concatenating once after the loop copies each item once.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, argument, dotted, names_in, number

# Library functions that return a new array holding their inputs.
_COPYING = frozenset(
    {
        "np.append",
        "numpy.append",
        "np.concatenate",
        "numpy.concatenate",
        "np.vstack",
        "np.hstack",
        "np.row_stack",
        "np.column_stack",
        "torch.cat",
        "torch.concat",
        "torch.concatenate",
        "pd.concat",
        "pandas.concat",
    }
)


# np.append takes the array itself first; the others take a sequence of arrays, so
# `torch.cat(parts)` joins a list once and is the fix, not the mistake.
_ARRAY_FIRST = frozenset({"np.append", "numpy.append"})
# Greedy decoding appends one token per step along the sequence axis (`ids = torch.cat([ids,
# nxt], dim=1)`): the standard idiom, bounded by the generation length, not a data pipeline.
_SEQUENCE_AXES = frozenset({1, -1})


def _takes(call: ast.Call, name: str) -> bool:
    """The accumulator among the call's inputs: `np.append(acc, x)` or `f([acc, x])`."""
    if not call.args:
        return False
    first = call.args[0]
    if dotted(call.func) in _ARRAY_FIRST:
        items = [first]
    elif isinstance(first, ast.List | ast.Tuple):
        items = first.elts
    else:
        return False
    return any(isinstance(item, ast.Name) and item.id == name for item in items)


def _along_sequence(call: ast.Call) -> bool:
    """torch.cat(..., dim=1): one more token per decoding step."""
    axis = number(argument(call, "dim", 1))
    torch_call = dotted(call.func).startswith("torch.")
    return torch_call and axis is not None and int(axis) in _SEQUENCE_AXES


def _fresh_each_pass(tree: Tree, node: ast.Assign, name: str) -> bool:
    """`name` is bound anew earlier in the same pass of the innermost loop, from values that do
    not include it (`body = base[idx]` then `body = np.concatenate([body, extra])`): each pass
    joins two fresh pieces once, and nothing carries over to grow (batch-30's news-classifier
    reproduction, where the detector blamed its data generator)."""
    loop = tree.loops(node)[0]
    for statement in loop.body:
        if node in ast.walk(statement):
            return False
        if (
            isinstance(statement, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in statement.targets)
            and name not in names_in(statement.value)
        ):
            return True
    return False


def _find(tree: Tree) -> list[Hit]:
    hits: list[Hit] = []
    for node in tree.nodes:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        call = node.value
        if dotted(call.func) not in _COPYING or not tree.loops(node) or _along_sequence(call):
            continue
        for target in node.targets:
            if (
                isinstance(target, ast.Name)
                and _takes(call, target.id)
                and not _fresh_each_pass(tree, node, target.id)
            ):
                hits.append(tree.hit(node, name=target.id, call=dotted(call.func)))
    return hits


DETECTOR = Detector(
    name="array_grown_in_loop",
    title="An array is grown inside a loop by a call that copies it (np.append, np.concatenate, "
    "torch.cat, pd.concat): each iteration copies everything so far",
    category="slow_throughput",
    explain=(
        "{where}: `{name}` is rebuilt by `{call}` inside a loop (`{code}`); each call copies "
        "the whole accumulated array, so the loop's time grows with the square of its length"
    ),
    find=_find,
)
