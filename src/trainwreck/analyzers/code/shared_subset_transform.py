"""A transform set on `subset.dataset` after random_split: it changes every split at once.

random_split (and Subset) does not copy the dataset: every split is a list of
indices into the same underlying object. Setting
`train_ds.dataset.transform = train_tf` therefore sets the transform of the
validation and test splits too, so evaluation runs on augmented images: the
validation accuracy is lower than it should be and changes from run to run
and epoch to epoch.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last

_SPLITS = frozenset({"random_split", "Subset"})


def _split_names(tree: Tree) -> set[str]:
    names: set[str] = set()
    for node in tree.nodes:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and last(node.value) in _SPLITS
        ):
            for target in node.targets:
                elements = target.elts if isinstance(target, ast.Tuple | ast.List) else [target]
                names.update(dotted(element) for element in elements)
    return names - {""}


def _find(tree: Tree) -> list[Hit]:
    splits = _split_names(tree)
    hits = []
    for node in tree.nodes:
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            path = dotted(target)
            owner, _, attribute = path.rpartition(".")
            if owner.endswith(".dataset") and owner[: -len(".dataset")] in splits:
                hits.append(tree.hit(node, split=owner[: -len(".dataset")], attribute=attribute))
    return hits


DETECTOR = Detector(
    name="subset_shares_dataset_attribute",
    title="A transform set through one random_split subset's .dataset applies to every split",
    category="wrong_output",
    explain=(
        "{where}: `{code}` sets `{attribute}` on the dataset that `{split}` shares with the other "
        "splits of random_split, so validation gets it too"
    ),
    find=_find,
)
