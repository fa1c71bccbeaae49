"""The package's layers point one way, no modules import each other in a cycle, and only
the CLI's command loading imports the project's own modules inside functions.

The contract (the order of the layers) is `[tool.importlinter]` in pyproject.toml;
import-linter and grimp count imports inside functions too.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "trainwreck"
# Commands whose optional extra is a module of ours that imports it (the MCP SDK behind
# mcp_server.server, Ray behind triage.ray_engine): loaded when the command needs it, so a
# missing extra is one line. Every other command module imports at its top; the group in
# cli/app.py loads a command's module by name when it runs. The entry (cli/__init__.py)
# loads the group, and with it Click, for every invocation but the top-level --help.
EXTRA_LOADING = {"cli/mcp.py", "cli/triage.py", "cli/__init__.py"}


def test_the_layers_contract_is_kept() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    linter = "from importlinter.cli import lint_imports; raise SystemExit(lint_imports())"
    done = subprocess.run(
        [sys.executable, "-c", linter], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-3000:]


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = stack[stack.index(node) :]
                    del stack[stack.index(node) :]
                    if len(group) > 1:
                        found.append(sorted(group))
            elif target not in index:
                index[target] = low[target] = len(index)
                stack.append(target)
                work.append((target, iter(sorted(graph.find_modules_directly_imported_by(target)))))
            elif target in stack:
                low[node] = min(low[node], index[target])
    return found


def test_no_module_import_cycles() -> None:
    assert _cycles(grimp.build_graph("trainwreck")) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for name in ("a", "a.b", "a.c", "a.d"):
        graph.add_module(name)
    graph.add_import(importer="a.b", imported="a.c")
    graph.add_import(importer="a.c", imported="a.b")
    graph.add_import(importer="a.d", imported="a.b")
    assert _cycles(graph) == [["a.b", "a.c"]]


def _is_project_import(node: ast.AST) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").startswith("trainwreck")
    return isinstance(node, ast.Import) and any(a.name.startswith("trainwreck") for a in node.names)


def _project_imports_in_functions(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.Import | ast.ImportFrom) and _is_project_import(node)
    ]


def test_only_optional_extras_are_imported_inside_functions() -> None:
    found = {
        path.relative_to(PACKAGE).as_posix(): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if (lines := _project_imports_in_functions(path))
    }
    assert set(found) <= EXTRA_LOADING, found
