"""Where the code puts a model's own parameters in a dtype: the weight casts the dtype
detectors (bfloat16, float16, Adam's eps in float16) start from."""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.names import is_module, model_names
from trainwreck.analyzers.code.tree import Tree, entry, keyword, last

# Module methods that cast every parameter, with the dtype each casts to.
_CAST_METHODS = {"half": "float16", "bfloat16": "bfloat16"}
# The keys a wrapper's model kwargs dict passes the dtype under.
_DTYPE_KEYS = ("torch_dtype", "dtype")


def weight_casts(tree: Tree, dtype: re.Pattern[str]) -> list[ast.Call]:
    """Every call in the code that puts a model's own parameters in a dtype `dtype` matches."""
    models = model_names(tree)
    return [call for call in tree.calls if _casts_weights(call, models, dtype, tree)]


def _dtype_text(value: ast.expr | None, tree: Tree) -> str:
    """A dtype argument's text, a name followed to its assignment (`DTYPE = torch.half`)."""
    return ast.unparse(tree.resolved(value)) if value is not None else ""


def _casts_weights(call: ast.Call, models: set[str], dtype: re.Pattern[str], tree: Tree) -> bool:
    """Whether the call puts a model's own parameters in a dtype `dtype` matches:
    `model.half()`, `model.to(torch.bfloat16)`, `from_pretrained(..., torch_dtype=...)`, or a
    loader given a keyword dict holding `torch_dtype`."""
    name = last(call)
    on_module = isinstance(call.func, ast.Attribute) and is_module(call.func.value, models)
    if name in _CAST_METHODS:
        return on_module and bool(dtype.search(_CAST_METHODS[name]))
    if name == "to":
        given = keyword(call, "dtype") or next(iter(call.args), None)
        return on_module and bool(dtype.search(_dtype_text(given, tree)))
    if name == "from_pretrained":
        given = keyword(call, "torch_dtype") or keyword(call, "dtype")
        return bool(dtype.search(_dtype_text(given, tree)))
    return any(dtype.search(_dtype_text(given, tree)) for given in _kwargs_dtypes(call, tree))


def _kwargs_dtypes(call: ast.Call, tree: Tree) -> list[ast.expr]:
    """The dtype a wrapper passes on to the model it loads through a keyword dict:
    `CrossEncoder(name, automodel_args={"torch_dtype": torch.float16})`,
    `SentenceTransformer(name, model_kwargs=kwargs)` with `kwargs` assigned such a dict."""
    found = []
    for given in call.keywords:
        kwargs = tree.resolved(given.value)
        found += [value for key in _DTYPE_KEYS if (value := entry(kwargs, key)) is not None]
    return found
