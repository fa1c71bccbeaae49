"""Questions the detectors ask of a parsed piece of code: names, calls, loops, grad mode.

The detectors read code the way a reviewer does, by shape and by name: a call
spelled `optimizer.step()`, a loop that holds it, a `with torch.no_grad():`
around it. This module answers those questions once, so each detector states
only its own rule.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from trainwreck.analyzers.code.parse import Parsed
from trainwreck.model import Scalar

Loop = ast.For | ast.AsyncFor | ast.While
Function = ast.FunctionDef | ast.AsyncFunctionDef
_GRAD_OFF = frozenset({"no_grad", "inference_mode"})
# How many `a = b` links `Tree.resolved` follows before it stops.
RESOLVE_DEPTH = 3


def dotted(node: ast.AST | None) -> str:
    """`torch.nn.functional.softmax` for a name chain (or the call of one); "" otherwise."""
    if isinstance(node, ast.Call):
        return dotted(node.func)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    if isinstance(node, ast.Subscript):
        return dotted(node.value)
    return ""


def last(node: ast.AST | None) -> str:
    """The last part of a dotted name: `step` for `self.optimizer.step`."""
    return dotted(node).rsplit(".", 1)[-1]


def receiver(call: ast.Call) -> str:
    """What a method is called on: `self.optimizer` for `self.optimizer.step()`."""
    return dotted(call.func.value) if isinstance(call.func, ast.Attribute) else ""


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((kw.value for kw in call.keywords if kw.arg == name), None)


def argument(call: ast.Call, name: str, position: int) -> ast.expr | None:
    """A call's argument given by keyword or, failing that, at its position."""
    found = keyword(call, name)
    if found is None and len(call.args) > position:
        found = call.args[position]
    return found


def number(node: ast.expr | None) -> float | None:
    """A numeric literal's value (`1e-8`, `-3`), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = number(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    return None


def is_true(node: ast.expr | None) -> bool:
    """The literal True (a flag such as `batch_first=True`, `keepdim=True`), not an expression."""
    return isinstance(node, ast.Constant) and node.value is True


def calls(node: ast.AST) -> Iterator[ast.Call]:
    return (child for child in ast.walk(node) if isinstance(child, ast.Call))


def is_method(call: ast.Call, method: str) -> bool:
    """`x.method(...)`."""
    return isinstance(call.func, ast.Attribute) and call.func.attr == method


def names_in(node: ast.AST) -> set[str]:
    """Every dotted name mentioned in an expression."""
    return {
        dotted(child) for child in ast.walk(node) if isinstance(child, ast.Name | ast.Attribute)
    }


def _disables_grad(context: ast.expr) -> bool:
    """`torch.no_grad()`, `inference_mode()`, or `set_grad_enabled(x)` unless x is True."""
    name = last(context)
    if name in _GRAD_OFF:
        return True
    if name == "set_grad_enabled" and isinstance(context, ast.Call) and context.args:
        flag = context.args[0]
        return not (isinstance(flag, ast.Constant) and flag.value is True)
    return False


@dataclass
class Tree:
    """A parsed piece indexed once: parent links, every node and call, and what binds each name.

    Detectors ask many questions of one tree; walking it once here keeps a
    thousand-line training script well under a second for all of them.
    """

    parsed: Parsed
    parents: dict[ast.AST, ast.AST] = field(default_factory=dict)
    nodes: list[ast.AST] = field(default_factory=list)
    calls: list[ast.Call] = field(default_factory=list)
    bindings: dict[str, list[ast.stmt]] = field(default_factory=dict)
    # A bare `torch.set_grad_enabled(False)` statement turns autograd off for what follows.
    grad_off_everywhere: bool = False

    def __post_init__(self) -> None:
        self.nodes = list(ast.walk(self.parsed.tree))
        for node in self.nodes:
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
            if isinstance(node, ast.Call):
                self.calls.append(node)
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                self.grad_off_everywhere |= _disables_grad(node.value)
            for name in _binds(node):
                self.bindings.setdefault(name, []).append(node)  # type: ignore[arg-type]

    @cached_property
    def source(self) -> str:
        """The code as parsed, without comments: what text-level checks search."""
        return ast.unparse(self.parsed.tree)

    def methods(self, method: str) -> list[ast.Call]:
        """Every call of `.method(...)` in the tree."""
        return [call for call in self.calls if is_method(call, method)]

    @property
    def root(self) -> ast.Module:
        return self.parsed.tree

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        while node in self.parents:
            node = self.parents[node]
            yield node

    def loops(self, node: ast.AST) -> list[Loop]:
        """The loops around a node inside its function, innermost first."""
        found: list[Loop] = []
        for outer in self.ancestors(node):
            if isinstance(outer, Function):
                break
            if isinstance(outer, Loop):
                found.append(outer)
        return found

    def directly_in(self, loop: Loop, calls: Iterable[ast.Call]) -> list[ast.Call]:
        """The calls whose innermost loop is `loop` (not a loop nested inside it)."""
        return [call for call in calls if self.loops(call)[:1] == [loop]]

    def function(self, node: ast.AST) -> Function | None:
        return next((a for a in self.ancestors(node) if isinstance(a, Function)), None)

    def grad_off(self, node: ast.AST) -> bool:
        """Whether autograd is off where the node runs (a no_grad block, decorator, or switch)."""
        if self.grad_off_everywhere:
            return True
        for outer in self.ancestors(node):
            if isinstance(outer, ast.With | ast.AsyncWith) and any(
                _disables_grad(item.context_expr) for item in outer.items
            ):
                return True
            if isinstance(outer, Function) and any(
                last(decorator) in _GRAD_OFF for decorator in outer.decorator_list
            ):
                return True
        return False

    def assignments(self, name: str, within: ast.AST | None = None) -> list[ast.stmt]:
        """Statements that bind `name` (a dotted target) anywhere under `within`."""
        bound = self.bindings.get(name, [])
        if within is None or within is self.root:
            return list(bound)
        return [node for node in bound if node is within or within in self.ancestors(node)]

    def values_of(self, name: str) -> list[ast.expr]:
        """The expressions a plain assignment binds to `name`; in `a, b = 1, 2` the one at
        the name's place (a recipe's constants are often set in one line)."""
        return [
            _unpacked(node.targets[0] if isinstance(node, ast.Assign) else node.target, value, name)
            for node in self.assignments(name)
            if isinstance(node, ast.Assign | ast.AnnAssign) and (value := node.value) is not None
        ]

    def resolved(self, node: ast.expr, depth: int = 0) -> ast.expr:
        """A plain name followed to the one value it is assigned (`total = len(loader)`,
        `DTYPE = torch.bfloat16`), through an `int(...)` around it, and a config entry
        (`CFG["lr_decay"]`) to its value in the dict literal or `dict(...)` call the
        config name is assigned once."""
        if depth < RESOLVE_DEPTH and isinstance(node, ast.Name):
            values = self.values_of(node.id)
            if len(values) == 1:
                return self.resolved(values[0], depth + 1)
        if isinstance(node, ast.Call) and last(node) == "int" and len(node.args) == 1:
            return self.resolved(node.args[0], depth + 1)
        if depth < RESOLVE_DEPTH and isinstance(node, ast.Subscript):
            key = node.slice
            value = (
                entry(self.resolved(node.value, depth + 1), key.value)
                if isinstance(key, ast.Constant) and isinstance(key.value, str)
                else None
            )
            if value is not None:
                return self.resolved(value, depth + 1)
        return node

    def parameters_receiving(self, name: str) -> list[tuple[Function, str]]:
        """(function, parameter) for each call in the code that passes `name` to a function
        the code defines (`predict(val_loader)` into `def predict(loader)`), by position
        (after `self` for a method) or by keyword."""
        defined = {node.name: node for node in self.nodes if isinstance(node, Function)}
        received: list[tuple[Function, str]] = []
        for call in self.calls:
            function = defined.get(last(call))
            if function is None:
                continue
            parameters = [argument.arg for argument in function.args.args]
            if parameters[:1] == ["self"] and isinstance(call.func, ast.Attribute):
                parameters = parameters[1:]
            for position, argument in enumerate(call.args):
                if dotted(argument) == name and position < len(parameters):
                    received.append((function, parameters[position]))
            received.extend(
                (function, kw.arg)
                for kw in call.keywords
                if kw.arg in parameters and dotted(kw.value) == name
            )
        return received

    def result_reworked(self, call: ast.Call, attributes: frozenset[str]) -> bool:
        """Whether one of these attributes is taken of the call's result: right away
        (`f(x).T`, `f(x).float()`) or later through the name the result is assigned to."""
        parent = self.parents.get(call)
        if isinstance(parent, ast.Attribute) and parent.attr in attributes:
            return True
        if not isinstance(parent, ast.Assign):
            return False
        bound = {dotted(target) for target in parent.targets} - {""}
        return any(
            isinstance(node, ast.Attribute)
            and node.attr in attributes
            and dotted(node.value) in bound
            for node in self.nodes
        )

    def hit(self, node: ast.AST, **values: Scalar) -> Hit:
        return Hit(
            source=self.parsed.source,
            line=self.parsed.where(node),
            text=self.parsed.text(node),
            values=values,
        )


def entry(container: ast.expr, key: str) -> ast.expr | None:
    """The value a dict literal (`{"lr": 0.1}`) or `dict(lr=0.1)` holds under a string key,
    else None."""
    if isinstance(container, ast.Dict):
        return next(
            (
                value
                for name, value in zip(container.keys, container.values, strict=True)
                if isinstance(name, ast.Constant) and name.value == key
            ),
            None,
        )
    if isinstance(container, ast.Call) and dotted(container.func) == "dict":
        return keyword(container, key)
    return None


def _unpacked(target: ast.expr, value: ast.expr, name: str) -> ast.expr:
    """The value an assignment gives `name`: the number at its place when a tuple of names
    is assigned a tuple of values of the same length, else the whole value. Numbers only:
    followed further (`mean, std = X.mean(0), X.std(0)`) the zero-std detector read every
    tuple-unpacked standardisation as a division by zero and led four NaN reproductions
    it did not explain (batches 15-23, development)."""
    if (
        isinstance(target, ast.Tuple | ast.List)
        and isinstance(value, ast.Tuple | ast.List)
        and len(target.elts) == len(value.elts)
    ):
        for item, given in zip(target.elts, value.elts, strict=True):
            if dotted(item) == name and number(given) is not None:
                return given
    return value


def _binds(node: ast.AST) -> set[str]:
    """Names a statement binds: assignment targets and loop variables."""
    targets: Iterable[ast.expr] = ()
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor):
        targets = (node.target,)
    return set().union(*(_bound(target) for target in targets)) if targets else set()


def _bound(target: ast.expr) -> set[str]:
    """Names a target binds: `a`, `self.total`, and each name of `a, (b, c)`."""
    if isinstance(target, ast.Tuple | ast.List):
        return set().union(*(_bound(item) for item in target.elts)) if target.elts else set()
    if isinstance(target, ast.Starred):
        return _bound(target.value)
    return {dotted(target)}


@dataclass(frozen=True)
class Hit:
    """Where a detector fired: the user's file and line, that line's text, and what it saw."""

    source: str
    line: int
    text: str
    values: dict[str, Scalar] = field(default_factory=dict)
