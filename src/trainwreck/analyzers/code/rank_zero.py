"""A collective called on one branch of a rank test: rank 0 waits for ranks that never come.

Every rank must enter each collective (all_reduce, barrier, a gather, a
checkpoint save that synchronises) in the same order. Inside `if rank == 0:`
(or `if trainer.is_global_zero:`, or a `@rank_zero_only` function) only rank 0
calls it, so it pairs with whatever the other ranks call next, or with nothing,
and the job hangs until the NCCL watchdog's timeout. `torch.save` under rank 0
is the right way to write a file and stays quiet.

A forward pass through a DistributedDataParallel wrapper is such a collective
too when the module holds buffers: with `broadcast_buffers=True` (the default)
DDP broadcasts them from rank 0 before every forward, so rank-0-only
evaluation through the wrapper (instead of its `.module`) hangs the same way.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import AMBIGUOUS_COLLECTIVES, COLLECTIVES, RANK, constructor
from trainwreck.analyzers.code.tree import Hit, Tree, calls, dotted, keyword, last, receiver

# Saves that gather the full weights when they are sharded (DeepSpeed ZeRO-3, FSDP): the HF
# Trainer's save_model and Accelerate's get_state_dict then run collectives every rank must
# join; with unsharded weights they are plain file writes, so they are a detector of their own.
_SHARDED_SAVES = frozenset({"save_model", "get_state_dict"})
_DISTRIBUTED_RECEIVER = re.compile(r"(?:^|\.)(?:dist|distributed|accelerator|comm|xm)$")
_MAIN_FLAG = re.compile(
    r"(?i)is_global_zero|is_main_process|is_local_main_process|is_world_process_zero|"
    r"is_rank_zero|is_master|main_process"
)
_RANK_ZERO_DECORATOR = "rank_zero_only"
_DDP = frozenset({"DistributedDataParallel", "DDP"})
# Layers that hold buffers DDP broadcasts, and torchvision CNN builders that contain them.
_BUFFERED_LAYER = re.compile(r"(?:^|\.)(?:BatchNorm\w*|SyncBatchNorm|register_buffer)$")
_BUFFERED_BUILDER = re.compile(
    r"(?i)^(?:resnet|resnext|wide_resnet|densenet|mobilenet|efficientnet|regnet)"
)


def _collective(call: ast.Call) -> bool:
    name = last(call)
    if name in COLLECTIVES:
        return True
    return name in AMBIGUOUS_COLLECTIVES and bool(_DISTRIBUTED_RECEIVER.search(receiver(call)))


def _rank_test(test: ast.expr) -> bool:
    """`rank == 0`, `get_rank() != 0`, `local_rank in [-1, 0]`, `trainer.is_global_zero`."""
    text = ast.unparse(test)
    if _MAIN_FLAG.search(text):
        return True
    compared = any(isinstance(node, ast.Compare | ast.UnaryOp) for node in ast.walk(test))
    return compared and bool(RANK.search(text))


def _side(test: ast.expr) -> str:
    """Which ranks run the `if` body: "main" (rank 0) or "others" (`rank != 0`, `not is_main`)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _flip(_side(test.operand))
    if isinstance(test, ast.BoolOp):
        ranked = [value for value in test.values if _rank_test(value)]
        return _side(ranked[0]) if ranked else "main"
    if isinstance(test, ast.Compare) and isinstance(test.ops[0], ast.NotEq | ast.NotIn | ast.Gt):
        return "others"
    return "main"


def _flip(side: str) -> str:
    return "others" if side == "main" else "main"


def _collectives(statements: list[ast.stmt]) -> dict[str, ast.Call]:
    found: dict[str, ast.Call] = {}
    for statement in statements:
        for call in calls(statement):
            if _collective(call):
                found.setdefault(last(call), call)
    return found


def _arms(node: ast.If) -> list[tuple[list[ast.stmt], str]]:
    """The branches of a rank test with the ranks that run each.

    Under `cond and rank == 0` the else branch runs on every rank where cond is
    false, so only the body of a compound test says which ranks run it.
    """
    side = _side(node.test)
    arms = [(node.body, side)]
    if not isinstance(node.test, ast.BoolOp):
        arms.append((node.orelse, _flip(side)))
    return arms


def _branch_hits(tree: Tree) -> list[Hit]:
    """Collectives only one side of the rank tests in a scope calls.

    The barrier pair of "main process first" code (`if rank != 0: barrier()` before
    the work, `if rank == 0: barrier()` after it) has both sides and stays quiet.
    """
    sides: dict[tuple[ast.AST | None, str], set[str]] = {}
    placed: list[tuple[ast.If, ast.Call]] = []
    for node in tree.nodes:
        if not isinstance(node, ast.If) or not _rank_test(node.test):
            continue
        for statements, runs in _arms(node):
            for name, call in _collectives(statements).items():
                sides.setdefault((tree.function(node), name), set()).add(runs)
                placed.append((node, call))
    return [
        tree.hit(call, collective=dotted(call), test=ast.unparse(node.test))
        for node, call in placed
        if len(sides[(tree.function(node), last(call))]) == 1
    ]


def _decorated_hits(tree: Tree) -> list[Hit]:
    """Collectives inside a function that only rank 0 runs."""
    hits = []
    for node in tree.nodes:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
            last(decorator) == _RANK_ZERO_DECORATOR for decorator in node.decorator_list
        ):
            for call in _collectives(node.body).values():
                hits.append(
                    tree.hit(call, collective=dotted(call), test=f"@{_RANK_ZERO_DECORATOR}")
                )
    return hits


def _find(tree: Tree) -> list[Hit]:
    return _branch_hits(tree) + _decorated_hits(tree)


DETECTOR = Detector(
    name="collective_in_rank_zero_branch",
    title="A collective is called on only some ranks (inside a rank-0-only branch)",
    category="hang",
    explain=(
        "{where}: `{code}` calls {collective}, a collective every rank must enter, under "
        "`{test}`, so the other ranks never match it and the job waits until the timeout"
    ),
    find=_find,
)


def _builder(tree: Tree, wrapped: ast.expr) -> str:
    """The constructor the wrapped module came from: `Net` for `Net().to(rank)` or a name
    bound to one."""
    if isinstance(wrapped, ast.Name):
        bound = [
            node.value
            for node in tree.nodes
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and last(node.value) not in _DDP
            and any(dotted(target) == wrapped.id for target in node.targets)
        ]
        wrapped = bound[0] if bound else wrapped
    return constructor(wrapped)


def _buffered(tree: Tree, wrapped: ast.expr) -> bool:
    """Whether the module DDP wraps holds buffers (its class, defined here, or its builder)."""
    name = _builder(tree, wrapped)
    if _BUFFERED_BUILDER.match(name):
        return True
    classes = [n for n in tree.nodes if isinstance(n, ast.ClassDef) and n.name == name]
    return any(_BUFFERED_LAYER.search(dotted(call)) for node in classes for call in calls(node))


def _ddp_models(tree: Tree) -> set[str]:
    """Names bound to a DDP wrapper that broadcasts buffers before each forward."""
    found: set[str] = set()
    for node in tree.nodes:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        wrap = node.value
        off = keyword(wrap, "broadcast_buffers")
        broadcasts = not (isinstance(off, ast.Constant) and not off.value)
        if last(wrap) in _DDP and wrap.args and broadcasts and _buffered(tree, wrap.args[0]):
            found.update(dotted(target) for target in node.targets)
    return found


def _runs_wrapper(call: ast.Call, wrapped: set[str]) -> str | None:
    """The DDP name a call runs: `model(x)`, or `evaluate(model, ...)` handing it on."""
    if dotted(call.func) in wrapped:
        return dotted(call.func)
    return next((dotted(arg) for arg in call.args if dotted(arg) in wrapped), None)


def _main_side_calls(tree: Tree) -> Iterator[tuple[ast.If, ast.Call]]:
    """Every call that only the main rank makes: in the main-rank arm of a rank test."""
    for node in tree.nodes:
        if isinstance(node, ast.If) and _rank_test(node.test):
            for statements, runs in _arms(node):
                if runs == "main":
                    for statement in statements:
                        for call in calls(statement):
                            yield node, call


def _find_ddp_forward(tree: Tree) -> list[Hit]:
    wrapped = _ddp_models(tree)
    if not wrapped:
        return []
    for node, call in _main_side_calls(tree):
        if (model := _runs_wrapper(call, wrapped)) is not None:
            return [tree.hit(call, model=model, test=ast.unparse(node.test))]
    return []


def _find_sharded_save(tree: Tree) -> list[Hit]:
    """save_model / get_state_dict on the main-rank side of a rank test."""
    for node, call in _main_side_calls(tree):
        if last(call) in _SHARDED_SAVES:
            return [tree.hit(call, save=dotted(call), test=ast.unparse(node.test))]
    return []


SHARDED_SAVE = Detector(
    name="sharded_save_in_rank_zero_branch",
    title="Only rank 0 calls a save that gathers sharded weights (ZeRO-3, FSDP), a collective",
    category="hang",
    explain=(
        "{where}: `{code}` calls {save} under `{test}`; with DeepSpeed ZeRO-3 or FSDP it "
        "gathers the full weights from every rank, a collective the other ranks never enter"
    ),
    find=_find_sharded_save,
)

DDP_FORWARD = Detector(
    name="ddp_forward_on_one_rank",
    title="Only rank 0 runs a forward through the DDP wrapper, whose buffer broadcast is a "
    "collective",
    category="hang",
    explain=(
        "{where}: `{code}` runs the DistributedDataParallel model `{model}` under `{test}`; "
        "its forward broadcasts the module's buffers from rank 0 (broadcast_buffers=True), "
        "a collective the other ranks never enter"
    ),
    find=_find_ddp_forward,
)
