"""`verification-script`: a script that proves the fix, and that can run.

A Python block in the verification region must compile and import only modules
this machine can find (`importlib.util.find_spec` on the top-level name: nothing
is imported or run). Our reports leave the script out of the text and say how to
write it (`--script`); that counts as present, its code checked where it is written.
"""

from __future__ import annotations

import ast
import importlib.util
import warnings

from trainwreck.answer_check.context import Context
from trainwreck.answer_check.model import RuleId, RuleResult
from trainwreck.answer_check.parse import Answer
from trainwreck.answer_check.rules.base import fail
from trainwreck.report.audit.text import Block

RULE: RuleId = "verification-script"
PYTHON = ("python", "py", "python3")
WRITE_OPTION = "--script"  # how our reports say the script is written (report/markdown.py)


def _imports(tree: ast.Module) -> list[str]:
    names = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    names += [
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
    ]
    return list(dict.fromkeys(name.split(".")[0] for name in names))


def _findable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _problems(block: Block) -> list[RuleResult]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(block.text, "<verification script>", "exec", dont_inherit=True)
    except SyntaxError as error:
        line = block.line + (error.lineno or 0)
        return [fail(RULE, line, f"the verification script does not compile: {error.msg}")]
    missing = [name for name in _imports(ast.parse(block.text)) if not _findable(name)]
    return [
        fail(
            RULE,
            block.line,
            f"the verification script imports {name!r}, which is not importable here",
        )
        for name in missing
    ]


def rule(answer: Answer, context: Context) -> list[RuleResult]:
    regions = answer.of("verify")
    scripts = [block for region in regions for block in region.blocks if block.language in PYTHON]
    if scripts:
        return [problem for block in scripts for problem in _problems(block)]
    if any(WRITE_OPTION in region.text() for region in regions):
        return []
    line = regions[0].line if regions else None
    return [fail(RULE, line, "no verification script: nothing shows the fix worked")]
