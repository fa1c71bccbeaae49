"""A model trained by the Hugging Face Trainer whose forward returns a tuple with the loss
behind another output (`return logits, loss`).

The Trainer takes a model output that is not a dict as a tuple and reads the loss from
its first element, so it calls backward() on the logits: "grad can be implicitly created
only for scalar outputs" when they are a tensor of several values, or, when the first
output happens to be a scalar, training that minimises the wrong number. A dict or
ModelOutput with a `loss` key, or the loss first, is what the Trainer reads.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.losses import is_loss_call, is_loss_name
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last

# Libraries whose Trainer reads the loss from a model's outputs this way.
_HF_TRAINERS = ("transformers", "trl")


def _uses_hf_trainer(tree: Tree) -> bool:
    imported = any(
        isinstance(node, ast.ImportFrom)
        and (node.module or "").split(".")[0] in _HF_TRAINERS
        and any(alias.name.endswith("Trainer") for alias in node.names)
        for node in tree.nodes
    )
    return imported and any(last(call).endswith("Trainer") for call in tree.calls)


def _is_loss(node: ast.expr) -> bool:
    return is_loss_call(node) if isinstance(node, ast.Call) else is_loss_name(dotted(node))


def _find(tree: Tree) -> list[Hit]:
    if not _uses_hf_trainer(tree):
        return []
    hits = []
    for node in tree.nodes:
        if not (isinstance(node, ast.FunctionDef) and node.name == "forward"):
            continue
        for returned in ast.walk(node):
            if not (isinstance(returned, ast.Return) and isinstance(returned.value, ast.Tuple)):
                continue
            if not returned.value.elts:
                continue
            first, *rest = returned.value.elts
            if not _is_loss(first) and any(_is_loss(element) for element in rest):
                hits.append(tree.hit(returned, first=dotted(first) or "the first output"))
    return hits


DETECTOR = Detector(
    name="trainer_model_loss_not_first",
    title="A model trained by the Hugging Face Trainer returns a tuple whose first element is not "
    "the loss",
    category="crash",
    explain=(
        "{where}: `{code}` puts `{first}` before the loss; the Trainer reads the loss of a tuple "
        "output from its first element and calls backward() on `{first}`"
    ),
    find=_find,
)
