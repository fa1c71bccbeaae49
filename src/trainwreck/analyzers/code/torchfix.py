"""TorchFix's rules that explain failures, restated as detectors (PyTorch's own linter).

TOR102: torch.load without weights_only. Since torch 2.6 the default is
weights_only=True, so a checkpoint that pickles more than tensors (an
argparse Namespace, NumPy scalars) fails to load with an UnpicklingError.
TOR003: torch.utils.checkpoint without use_reentrant. The reentrant variant
returns no gradient when no input requires grad (frozen embeddings under
LoRA) and re-runs hooks DDP counts once ("marked ready twice").
TOR401: a DataLoader with num_workers=0 loads every batch in the training
process, between steps. TOR002: `require_grad` is a typo; assigning it sets a
plain attribute, so nothing is frozen or unfrozen.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import runs_on_gpu
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, keyword, last, number

_CHECKPOINT_FUNCTIONS = frozenset({"checkpoint", "checkpoint_sequential"})
# DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler, num_workers, ...)
_NUM_WORKERS_POSITION = 5


def _torch_load(tree: Tree) -> list[Hit]:
    return [
        tree.hit(call, call=ast.unparse(call))
        for call in tree.calls
        if dotted(call) == "torch.load" and keyword(call, "weights_only") is None
    ]


def _imports_checkpoint(tree: Tree) -> bool:
    return any(
        isinstance(node, ast.ImportFrom) and node.module == "torch.utils.checkpoint"
        for node in tree.nodes
    )


def _reentrant(tree: Tree) -> list[Hit]:
    imported = _imports_checkpoint(tree)
    hits = []
    for call in tree.calls:
        name = dotted(call)
        ours = name.startswith("torch.utils.checkpoint.") or (
            imported and name in _CHECKPOINT_FUNCTIONS
        )
        if not ours or last(call) not in _CHECKPOINT_FUNCTIONS:
            continue
        flag = keyword(call, "use_reentrant")
        if flag is None or (isinstance(flag, ast.Constant) and flag.value is True):
            given = "not given" if flag is None else "True"
            hits.append(tree.hit(call, use_reentrant=given))
    return hits


def _synchronous_loader(tree: Tree) -> list[Hit]:
    """Only for code that trains on a GPU: on the CPU the loader shares the cores anyway."""
    if not runs_on_gpu(tree):
        return []
    hits = []
    for call in tree.calls:
        if last(call) != "DataLoader" or any(kw.arg is None for kw in call.keywords):
            continue  # `**kwargs` may carry num_workers
        workers = keyword(call, "num_workers")
        if workers is None and len(call.args) > _NUM_WORKERS_POSITION:
            workers = call.args[_NUM_WORKERS_POSITION]
        if workers is None or number(workers) == 0:
            hits.append(tree.hit(call, num_workers=0))
    return hits


def _require_grad(tree: Tree) -> list[Hit]:
    return [
        tree.hit(node, target=ast.unparse(target))
        for node in tree.nodes
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Attribute) and target.attr == "require_grad"
    ]


TORCH_LOAD = Detector(
    name="torch_load_without_weights_only",
    title="torch.load without weights_only (its default became True in torch 2.6)",
    category="crash",
    explain=(
        "{where}: `{code}` calls torch.load without weights_only: since torch 2.6 it loads "
        "tensors only, and a checkpoint that pickles other objects fails to load"
    ),
    find=_torch_load,
)
REENTRANT_CHECKPOINT = Detector(
    name="checkpoint_reentrant",
    title="Activation checkpointing with the reentrant variant (use_reentrant not False)",
    category="crash",
    explain=(
        "{where}: `{code}` checkpoints with use_reentrant {use_reentrant}: the reentrant "
        "variant gives no gradient when no input requires grad, and breaks DDP's hooks"
    ),
    find=_reentrant,
)
SYNCHRONOUS_LOADER = Detector(
    name="dataloader_no_workers",
    title="A DataLoader loads batches in the training process (num_workers=0)",
    category="slow_throughput",
    explain=(
        "{where}: `{code}` builds a DataLoader with num_workers=0: every batch is loaded and "
        "collated in the training process, between steps"
    ),
    find=_synchronous_loader,
)
REQUIRE_GRAD_TYPO = Detector(
    name="require_grad_typo",
    title="`require_grad` (a typo for requires_grad) is assigned, so nothing is frozen or unfrozen",
    category="wrong_output",
    explain=(
        "{where}: `{code}` sets `{target}`, a plain attribute PyTorch never reads; "
        "the parameter's requires_grad is unchanged"
    ),
    find=_require_grad,
)
