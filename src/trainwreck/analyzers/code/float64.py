"""NumPy float64 data made into a tensor with no dtype: float64 inputs to a float32 model.

NumPy's float-producing functions return float64 unless told otherwise, and
torch.from_numpy, torch.tensor and torch.as_tensor keep the array's dtype,
while nn layers are built in float32 (torch's default dtype). The first layer
then fails with "mat1 and mat2 must have the same dtype, but got Double and
Float". Data known to be float32 (`.astype(np.float32)`, `dtype=`), a tensor
cast with `.float()` before use, and code that runs the model in float64 on
purpose (`.double()`, torch.float64) stay quiet.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, keyword, last, receiver

_NUMPY_FLOATS = re.compile(
    r"^(?:np|numpy)\.(?:random\.(?:randn|rand|random|normal|uniform|standard_normal|random_sample)"
    r"|zeros|ones|empty|full|linspace|loadtxt|genfromtxt|array|asarray|stack|concatenate)$"
)
_GENERATORS = re.compile(r"^(?:np|numpy)\.random\.(?:default_rng|RandomState|Generator)$")
_GENERATOR_FLOATS = frozenset({"normal", "random", "uniform", "standard_normal", "rand", "randn"})
_TO_TENSOR = frozenset({"torch.from_numpy", "torch.tensor", "torch.as_tensor"})
_CASTS = frozenset({"float", "half", "bfloat16", "to", "type"})
_FLOAT64_WORDS = re.compile(r"\bfloat64\b|\bdouble\b|\bfloat_\b")
_DELIBERATE_FLOAT64 = re.compile(r"\.double\(\)|torch\.float64|set_default_dtype")
MAX_DEPTH = 4


def _dtype_is_float64(call: ast.Call) -> bool | None:
    """What a `dtype=` keyword (or `.astype(...)` argument) says; None when there is none."""
    given = keyword(call, "dtype") or (
        call.args[0] if last(call) == "astype" and call.args else None
    )
    return None if given is None else bool(_FLOAT64_WORDS.search(ast.unparse(given)))


def _float_literals(value: ast.expr) -> bool:
    """A list or tuple literal holding a Python float: NumPy stores it as float64."""
    return isinstance(value, ast.List | ast.Tuple) and any(
        isinstance(node, ast.Constant) and isinstance(node.value, float) for node in ast.walk(value)
    )


class _Float64:
    """Which expressions of one tree evaluate to a NumPy float64 array."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.generators = {
            dotted(target)
            for node in tree.nodes
            if isinstance(node, ast.Assign) and _GENERATORS.match(dotted(node.value))
            for target in node.targets
        }

    def __call__(self, value: ast.expr, depth: int = 0) -> bool:
        if depth > MAX_DEPTH:
            return False
        if isinstance(value, ast.Call):
            return self._call(value, depth)
        if isinstance(value, ast.BinOp):
            return self(value.left, depth + 1) or self(value.right, depth + 1)
        if isinstance(value, ast.Subscript):
            return self(value.value, depth + 1)
        if isinstance(value, ast.Attribute):
            return value.attr == "values"  # a pandas frame's float64 block
        if isinstance(value, ast.Name):
            return any(self(bound, depth + 1) for bound in self.tree.values_of(value.id))
        return False

    def _call(self, call: ast.Call, depth: int) -> bool:
        stated = _dtype_is_float64(call)
        if stated is not None:
            return stated
        name = dotted(call)
        if _NUMPY_FLOATS.match(name):
            arrays = name.endswith(("array", "asarray", "stack", "concatenate"))
            return not arrays or any(
                _float_literals(arg) or self(arg, depth + 1) for arg in call.args
            )
        if receiver(call) in self.generators and last(call) in _GENERATOR_FLOATS:
            return True
        return last(call) == "to_numpy"


def _find(tree: Tree) -> list[Hit]:
    if _DELIBERATE_FLOAT64.search(tree.source):
        return []
    float64 = _Float64(tree)
    hits = []
    for call in tree.calls:
        if dotted(call) not in _TO_TENSOR or not call.args or keyword(call, "dtype") is not None:
            continue
        if float64(call.args[0]) and not tree.result_reworked(call, _CASTS):
            hits.append(tree.hit(call, array=ast.unparse(call.args[0]), convert=dotted(call)))
    return hits


DETECTOR = Detector(
    name="numpy_float64_input",
    title="NumPy float64 data becomes a float64 tensor (the model's weights are float32)",
    category="crash",
    explain=(
        "{where}: `{code}` makes a tensor from NumPy data `{array}`, which is float64 by "
        "default, with no dtype: {convert} keeps float64, while nn layers are float32"
    ),
    find=_find,
)
