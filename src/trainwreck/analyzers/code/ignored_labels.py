"""A metric that compares predictions with labels at the positions the loss ignores.

Token-level labels carry -100 where nothing is to be predicted (special tokens,
continuation sub-words, padding added by the collator), and cross-entropy skips
those positions. A hand-written accuracy `(preds == labels).mean()` over the
whole array counts them as errors (no prediction equals -100), so the metric
sits far below what the loss says and stays there however well the model
learns. The rule needs evidence that the labels hold -100 (the constant in the
code, or a collator or model head that pads labels with it) and a metric
function that never excludes it.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Function, Hit, Tree, names_in, number

IGNORE_INDEX = -100.0
# Library parts that fill labels with -100 where the loss must skip them.
_PADS_WITH_IGNORE = re.compile(
    r"DataCollatorForTokenClassification|DataCollatorForSeq2Seq|DataCollatorForLanguageModeling|"
    r"ForTokenClassification|ignore_index"
)
_METRIC_FUNCTION = re.compile(r"(?i)metric|accuracy|(?:^|_)acc(?:_|$)")
_MASK_WORDS = re.compile(r"(?i)mask|valid|keep|ignore")


def _ignore_constant(node: ast.AST) -> bool:
    return any(
        isinstance(child, ast.UnaryOp) and number(child) == IGNORE_INDEX for child in ast.walk(node)
    )


def _excludes_ignored(function: Function) -> bool:
    """The function drops the ignored positions: -100, a `!=` test, or a mask by name."""
    for node in ast.walk(function):
        if isinstance(node, ast.Compare) and any(isinstance(op, ast.NotEq) for op in node.ops):
            return True
        if isinstance(node, ast.Name | ast.Attribute) and _MASK_WORDS.search(
            node.id if isinstance(node, ast.Name) else node.attr
        ):
            return True
    return _ignore_constant(function)


def _label_equality(node: ast.AST) -> bool:
    """`preds == labels` with a label array on one side."""
    return (
        isinstance(node, ast.Compare)
        and any(isinstance(op, ast.Eq) for op in node.ops)
        and any("label" in name.lower() for name in names_in(node))
    )


def _find(tree: Tree) -> list[Hit]:
    if not (_ignore_constant(tree.root) or _PADS_WITH_IGNORE.search(tree.source)):
        return []
    hits: list[Hit] = []
    for function in (node for node in tree.nodes if isinstance(node, Function)):
        if not _METRIC_FUNCTION.search(function.name) or _excludes_ignored(function):
            continue
        hits.extend(
            tree.hit(node, function=function.name)
            for node in ast.walk(function)
            if _label_equality(node)
        )
    return hits


DETECTOR = Detector(
    name="metric_counts_ignored_labels",
    title="The metric compares predictions with labels at the -100 positions the loss ignores",
    category="wrong_output",
    explain=(
        "{where}: `{function}` computes `{code}` over every label position, including the "
        "-100 ones (special tokens, sub-words, padding) that no prediction can equal"
    ),
    find=_find,
)
