"""Name the first op of a replayed training step that made NaN or Inf from values without.

A non-finite loss is the end of a chain, and the op that started it is what a user fixes.
`first_bad_op` replays the step under a `TorchDispatchMode`, which sees every aten op of
the forward and of the backward, and stops judging at the first op whose output holds a
kind of non-finite value its inputs did not: Inf out of all-finite inputs, or NaN out of
NaN-free ones (so `softmax` over a row of `-inf` masks counts, but `masked_fill(-inf)`
does not).

Module paths come from the global forward hooks (`register_module_forward_pre_hook`,
`register_module_forward_hook`): the replay gets a closure, not a model, so there is no
module to put per-module hooks on. A backward op is mapped to the forward op it belongs
to by autograd's sequence numbers (checked on torch 2.13): an op that records a graph node
takes the thread's next sequence number, so the first op the mode sees after the counter
moved to n + 1 made node n, and during backward `torch._C._current_autograd_node()` is the
node running, whose `_sequence_nr()` is that n.
"""

from __future__ import annotations

import linecache
import math
import os
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch.nn.modules.module import (
    register_module_forward_hook,
    register_module_forward_pre_hook,
)
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

from trainwreck.model import Finding, SourceRef

FINDING_ID = "nan.first_bad_op"
FINDING_IDS: tuple[str, ...] = (FINDING_ID,)
# Frames in these folders are machinery; the innermost frame outside them is the user's line.
_MACHINERY = (f"{Path(torch.__file__).parent}{os.sep}", f"{Path(__file__).parents[1]}{os.sep}")
# Ops whose output is uninitialised memory: any bits, so a NaN there was never computed.
_UNINITIALISED = frozenset(
    {
        "aten::empty",
        "aten::empty_like",
        "aten::empty_strided",
        "aten::empty_permuted",
        "aten::new_empty",
        "aten::new_empty_strided",
        "aten::resize_",
        "aten::resize_as_",
    }
)


@dataclass(frozen=True)
class Site:
    """Where an op ran: its aten overload, the module whose forward ran it, the user's line."""

    op: str
    module: str | None
    file: str | None
    line: int | None


@dataclass(frozen=True)
class BadOp:
    """The first op that made NaN or Inf from inputs without that kind of value.

    For an op that ran in backward, `site` is the forward op its autograd node belongs to:
    the backward op's own stack shows only the `backward()` call.
    """

    op: str
    site: Site
    input_shapes: tuple[tuple[int, ...], ...]
    input_dtypes: tuple[str, ...]
    nan_count: int
    inf_count: int
    in_backward: bool
    autograd_node: str | None

    @property
    def location(self) -> str:
        return f"{self.site.file}:{self.site.line}" if self.site.file else "unknown"

    def to_finding(self) -> Finding:
        return Finding(
            id=FINDING_ID,
            title=f"first non-finite value made by {self.op}",
            category="nan_inf",
            summary=_summary(self),
            evidence=_evidence(self.site),
            values={
                "op": self.op,
                "module": self.site.module,
                "file": self.site.file,
                "line": self.site.line,
                "input_shapes": "; ".join(str(list(shape)) for shape in self.input_shapes),
                "input_dtypes": ", ".join(self.input_dtypes),
                "nan_count": self.nan_count,
                "inf_count": self.inf_count,
                "in_backward": self.in_backward,
                "autograd_node": self.autograd_node,
                "forward_op": self.site.op if self.in_backward else None,
            },
        )


def first_bad_op(fn: Callable[..., object], *args: object, **kwargs: object) -> BadOp | None:
    """Run `fn(*args, **kwargs)` (one step: forward, loss, backward) and name its first bad op.

    None when every op kept its inputs' kinds of values: the step is healthy.
    """
    modules = _ModuleStack()
    mode = _FirstBadOpMode(modules)
    with modules.hooked(), mode:
        fn(*args, **kwargs)
    return mode.found


class _ModuleStack:
    """Which module's forward is running, named like `Net.encoder.norm`."""

    def __init__(self) -> None:
        self._names: dict[torch.nn.Module, str] = {}
        self._stack: list[str] = []

    @property
    def path(self) -> str | None:
        return self._stack[-1] if self._stack else None

    def enter(self, module: torch.nn.Module, _inputs: Any) -> None:
        if module not in self._names:
            prefix = f"{self.path}." if self.path else ""
            root = prefix + type(module).__name__
            for name, child in module.named_modules():
                self._names.setdefault(child, f"{root}.{name}" if name else root)
        self._stack.append(self._names[module])

    def leave(self, _module: torch.nn.Module, _inputs: Any, _output: Any) -> None:
        if self._stack:
            self._stack.pop()

    @contextmanager
    def hooked(self) -> Iterator[None]:
        handles = [
            register_module_forward_pre_hook(self.enter),
            register_module_forward_hook(self.leave, always_call=True),
        ]
        try:
            yield
        finally:
            for handle in handles:
                handle.remove()


class _FirstBadOpMode(TorchDispatchMode):  # type: ignore[no-untyped-call]  # untyped in torch
    """Checks every op until one makes a kind of non-finite value its inputs lacked."""

    def __init__(self, modules: _ModuleStack) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.found: BadOp | None = None
        self._modules = modules
        self._first_node = torch._C._autograd._get_sequence_nr()
        self._forward_sites: dict[int, Site] = {}

    def __torch_dispatch__(
        self,
        func: torch._ops.OpOverload,
        types: Sequence[type],
        args: Sequence[Any] = (),
        kwargs: dict[str, Any] | None = None,
    ) -> Any:
        kwargs = kwargs or {}
        if self.found is not None:
            return func(*args, **kwargs)
        # `out=` buffers are destinations, often uninitialised; they are not inputs.
        inputs = tree_leaves((args, {k: v for k, v in kwargs.items() if k != "out"}))
        had_nan, had_inf = _kinds(inputs)
        node = torch._C._current_autograd_node()
        site = self._site(func, node)
        output = func(*args, **kwargs)
        if func._schema.name in _UNINITIALISED:
            return output
        nan_count, inf_count = _counts(tree_leaves(output))
        if (nan_count and not had_nan) or (inf_count and not (had_nan or had_inf)):
            tensors = [t for t in inputs if isinstance(t, torch.Tensor)]
            self.found = BadOp(
                op=str(func),
                site=site,
                input_shapes=tuple(tuple(t.shape) for t in tensors),
                input_dtypes=tuple(str(t.dtype).removeprefix("torch.") for t in tensors),
                nan_count=nan_count,
                inf_count=inf_count,
                in_backward=torch._C._current_graph_task_id() != -1,
                autograd_node=node.name() if node is not None else None,
            )
        return output

    def _site(self, func: torch._ops.OpOverload, node: Any) -> Site:
        """A forward op's own site; a backward op's is that of the forward op of its node."""
        if torch._C._current_graph_task_id() != -1:
            forward = self._forward_sites.get(node._sequence_nr()) if node else None
            return forward or Site(str(func), self._modules.path, *_user_line())
        site = Site(str(func), self._modules.path, *_user_line())
        made = torch._C._autograd._get_sequence_nr() - 1
        if made >= self._first_node and made not in self._forward_sites:
            self._forward_sites[made] = site
        return site


def _kinds(values: Sequence[Any]) -> tuple[bool, bool]:
    """Whether any input holds NaN, and whether any holds Inf (Python numbers count)."""
    has_nan = has_inf = False
    for value in values:
        if isinstance(value, float):
            has_nan, has_inf = has_nan or math.isnan(value), has_inf or math.isinf(value)
        elif _judged(value) and not bool(torch.isfinite(value).all()):
            has_nan = has_nan or bool(torch.isnan(value).any())
            has_inf = has_inf or bool(torch.isinf(value).any())
    return has_nan, has_inf


def _counts(values: Sequence[Any]) -> tuple[int, int]:
    """NaN and Inf elements over the op's floating outputs."""
    judged = [value for value in values if _judged(value)]
    nan_count = sum(int(torch.isnan(value).sum()) for value in judged)
    inf_count = sum(int(torch.isinf(value).sum()) for value in judged)
    return nan_count, inf_count


def _judged(value: Any) -> bool:
    """A dense tensor with values that can be non-finite (no meta or sparse tensors)."""
    return (
        isinstance(value, torch.Tensor)
        and (value.is_floating_point() or value.is_complex())
        and value.layout == torch.strided
        and value.device.type != "meta"
    )


def _user_line() -> tuple[str | None, int | None]:
    """The innermost frame outside torch and trainwreck: the user's line that ran the op."""
    for frame, line in traceback.walk_stack(None):
        if not frame.f_code.co_filename.startswith(_MACHINERY):
            return frame.f_code.co_filename, line
    return None, None


def _summary(bad: BadOp) -> str:
    made = f"{bad.nan_count} NaN and {bad.inf_count} Inf"
    where = f"in {bad.site.module} " if bad.site.module else ""
    if bad.in_backward:
        return (
            f"{bad.op} in the backward of {bad.site.op} ({bad.autograd_node}) {where}"
            f"at {bad.location} made {made} from inputs without them"
        )
    return f"{bad.op} {where}at {bad.location} made {made} from inputs without them"


def _evidence(site: Site) -> tuple[SourceRef, ...]:
    if site.file is None or site.line is None:
        return ()
    text = linecache.getline(site.file, site.line).strip()
    return (SourceRef(source=site.file, line=site.line, text=text),)
