"""An optimizer built without a learning rate and handed to the Trainer.

`Trainer(..., optimizers=(optimizer, scheduler))` uses the optimizer it is given
as it is: `TrainingArguments.learning_rate` only sets the learning rate of the
optimizer the Trainer builds itself. An optimizer constructed with no `lr`
therefore trains at its class's default (RMSprop and Adagrad 1e-2, Adam 1e-3),
often ten to a hundred times the fine-tuning rate the arguments say, while the
logs print the learning rate the scheduler derives from that default.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import OPTIMIZER_CLASSES
from trainwreck.analyzers.code.tree import Hit, Tree, keyword, last

# torch.optim constructors take (params, lr, ...): a second positional argument is the rate.
_RATE_POSITION = 1


def _built_without_rate(value: ast.expr) -> bool:
    return (
        isinstance(value, ast.Call)
        and last(value) in OPTIMIZER_CLASSES
        and keyword(value, "lr") is None
        and len(value.args) <= _RATE_POSITION
    )


def _handed_optimizers(tree: Tree) -> list[tuple[ast.Call, ast.expr]]:
    """(the Trainer call, the optimizer expression) for `Trainer(..., optimizers=(opt, ...))`."""
    found = []
    for call in tree.calls:
        pair = keyword(call, "optimizers")
        if last(call).endswith("Trainer") and isinstance(pair, ast.Tuple) and pair.elts:
            found.append((call, pair.elts[0]))
    return found


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for trainer, optimizer in _handed_optimizers(tree):
        values = tree.values_of(optimizer.id) if isinstance(optimizer, ast.Name) else [optimizer]
        built = next((value for value in values if _built_without_rate(value)), None)
        if built is not None:
            hits.append(tree.hit(built, optimizer=last(built), trainer=last(trainer)))
    return hits


DETECTOR = Detector(
    name="trainer_optimizer_without_lr",
    title="An optimizer built without lr is handed to the Trainer, which does not apply "
    "TrainingArguments.learning_rate to it",
    category="divergence",
    explain=(
        "{where}: `{code}` sets no lr and is passed to {trainer}(optimizers=...): the Trainer "
        "uses it as built, so it trains at {optimizer}'s default learning rate, not the one in "
        "TrainingArguments"
    ),
    find=_find,
)
