"""Assemble a script from its template: docstring, parameters and shared snippets.

Templates are `templates/*.py.tmpl`, whole Python scripts with `$doc`,
`$parameters` and `$common` (plus `$causal_lm` for those that build a model);
`string.Template.substitute` raises on a placeholder left unfilled, so a broken
template fails in the tests, never in a user's hands.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from string import Template

from trainwreck.fixes.scripts.parameters import Parameter, render


@cache
def template(name: str) -> str:
    """The text of `templates/<name>.py.tmpl`."""
    return files(__package__).joinpath("templates", f"{name}.py.tmpl").read_text("utf-8")


def script(name: str, doc: str, parameters: list[Parameter]) -> str:
    """The complete script: the template with its docstring and parameters filled in."""
    return Template(template(name)).substitute(
        doc=doc.strip().replace('"""', "'''"),
        parameters=render(parameters),
        common=template("common").rstrip(),
        causal_lm=template("causal_lm").rstrip(),
    )
