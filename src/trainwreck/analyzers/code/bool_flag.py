"""A command-line option parsed with `type=bool`, which makes every non-empty value True.

argparse calls the type on the option's string, and bool() of any non-empty
string, "False" and "0" included, is True. `--freeze False` therefore sets the
option to True, and the run silently does what the user switched off.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, is_method, keyword


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        converter = keyword(call, "type")
        if (
            is_method(call, "add_argument")
            and isinstance(converter, ast.Name)
            and converter.id == "bool"
        ):
            option = call.args[0] if call.args else None
            name = option.value if isinstance(option, ast.Constant) else "the option"
            hits.append(tree.hit(call, option=str(name)))
    return hits


DETECTOR = Detector(
    name="argparse_type_bool",
    title="A command-line option is parsed with type=bool, so any value, even 'False', is True",
    category="config_error",
    explain=(
        "{where}: `{option}` uses type=bool; argparse passes the option's text to bool(), and "
        "every non-empty string is True, so `{option} False` turns it on"
    ),
    find=_find,
)
