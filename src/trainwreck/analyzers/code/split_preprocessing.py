"""Image generators for different splits built with different scaling: one rescales, one not.

Keras code builds one ImageDataGenerator per split. When the training one rescales
(`rescale=1./255`) or applies a backbone's `preprocessing_function` and another one does
neither, the model is evaluated on inputs in another range than it learned (raw 0-255
pixels against 0-1), and validation accuracy sits near chance while training accuracy is
high. Fires on the generator that scales nothing, when another in the same code scales.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, keyword, last

_GENERATOR = "ImageDataGenerator"
# The arguments that put pixels in the range the model trains on.
_SCALING = ("rescale", "preprocessing_function", "featurewise_center", "samplewise_center")


def _scales(call: ast.Call) -> bool:
    return any(keyword(call, name) is not None for name in _SCALING)


def _find(tree: Tree) -> list[Hit]:
    generators = [call for call in tree.calls if last(call) == _GENERATOR]
    if not any(_scales(call) for call in generators):
        return []
    return [tree.hit(call) for call in generators if not _scales(call)]


DETECTOR = Detector(
    name="split_preprocessing_differs",
    title="One split's ImageDataGenerator rescales the pixels and another's does not",
    category="wrong_output",
    explain=(
        "{where}: `{code}` scales nothing while another ImageDataGenerator in the same code "
        "rescales or preprocesses: that split reaches the model in another value range"
    ),
    find=_find,
)
