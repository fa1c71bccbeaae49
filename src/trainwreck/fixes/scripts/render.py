"""Assemble a script from its template: docstring, parameters and shared snippets.

Templates are `templates/*.py.tmpl`, whole Python scripts with `$doc`,
`$parameters` and `$common` (plus `$causal_lm` for those that build a model,
`$command` for those that rerun the user's command, and `$readings`, the source of
readings.py, for those that read a throughput or a metric from its output);
`string.Template.substitute` raises on a placeholder left unfilled, so a broken
template fails in the tests, never in a user's hands.
"""

from __future__ import annotations

import ast
from functools import cache
from importlib.resources import files
from string import Template

from trainwreck.fixes.scripts.parameters import Parameter, render

# The module whose code the rerun scripts carry, and trainwreck reads the evidence with.
READINGS_MODULE = "readings.py"


@cache
def template(name: str) -> str:
    """The text of `templates/<name>.py.tmpl`."""
    return files(__package__).joinpath("templates", f"{name}.py.tmpl").read_text("utf-8")


@cache
def readings_source() -> str:
    """readings.py after its imports: the code a script pastes (its template makes them)."""
    source = files(__package__).joinpath(READINGS_MODULE).read_text("utf-8")
    tree = ast.parse(source)
    imports_end = max(
        node.end_lineno or node.lineno
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
    )
    return "\n".join(source.splitlines()[imports_end:]).strip()


def script(name: str, doc: str, parameters: list[Parameter]) -> str:
    """The complete script: the template with its docstring and parameters filled in."""
    return Template(template(name)).substitute(
        doc=doc.strip().replace('"""', "'''"),
        parameters=render(parameters),
        common=template("common").rstrip(),
        causal_lm=template("causal_lm").rstrip(),
        command=template("command").rstrip(),
        readings=readings_source(),
    )
