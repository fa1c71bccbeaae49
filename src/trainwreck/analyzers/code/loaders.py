"""Following a DataLoader through training code: where it is built and which loops read it.

Several detectors ask the same questions of a loader: which `name = DataLoader(...)`
assignments the code makes, what dataset and sampler each is given, and whether a loop
that calls backward() reads it (a training loader) or not (evaluation).
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.tree import Tree, dotted, keyword, last, names_in

# What a DataLoader is called in user code: `train_loader`, `dataloader`, `val_dl`, `self.loader`.
LOADER_NAME = re.compile(r"(?i)loader|(?:^|[._])dl$")


def built_loaders(tree: Tree) -> list[tuple[ast.Assign, ast.Call, str]]:
    """Each `name = DataLoader(...)`: the assignment, the call and the name it binds."""
    found = []
    for node in tree.nodes:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        call = node.value
        if isinstance(call, ast.Call) and last(call) == "DataLoader" and dotted(node.targets[0]):
            found.append((node, call, dotted(node.targets[0])))
    return found


def dataset_of(call: ast.Call) -> ast.expr | None:
    """The dataset a DataLoader call is given, by position or keyword."""
    return call.args[0] if call.args else keyword(call, "dataset")


def shuffle_argument(call: ast.Call) -> bool | None:
    """The DataLoader call's `shuffle`: False when it is left out (the default), the
    constant when one is written, None when it is an expression the code decides."""
    shuffle = keyword(call, "shuffle")
    if shuffle is None:
        return False
    value = shuffle.value if isinstance(shuffle, ast.Constant) else None
    return value if isinstance(value, bool) else None


def has_sampler(call: ast.Call) -> bool:
    """The DataLoader call is given a sampler or a batch sampler, which decides the order."""
    return keyword(call, "sampler") is not None or keyword(call, "batch_sampler") is not None


def loops_over(tree: Tree, loader: str) -> list[ast.For]:
    """`for ... in loader` (also through `enumerate(...)`/`tqdm(...)`), and the loop over the
    parameter of a helper the loader is passed to (`predict(val_loader)`)."""
    direct = [
        node for node in tree.nodes if isinstance(node, ast.For) and loader in names_in(node.iter)
    ]
    through = [
        node
        for function, parameter in tree.parameters_receiving(loader)
        for node in ast.walk(function)
        if isinstance(node, ast.For) and parameter in names_in(node.iter)
    ]
    return direct + through


def trains_from(tree: Tree, loader: str, assignment: ast.stmt) -> bool:
    """Whether the loader this assignment builds feeds a loop that calls backward(): a
    training loader. A loop in another function that binds the same name itself reads that
    function's own loader (`dl` for training in one function, for evaluation in another)."""
    scope = tree.function(assignment)

    def reads_this_loader(loop: ast.For) -> bool:
        function = tree.function(loop)
        return function is scope or function is None or not tree.assignments(loader, function)

    return any(
        isinstance(node, ast.Call) and last(node) == "backward"
        for loop in loops_over(tree, loader)
        if reads_this_loader(loop)
        for node in ast.walk(loop)
    )
