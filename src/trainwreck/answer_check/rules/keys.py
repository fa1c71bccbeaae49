"""`unknown-key` and `default-as-fix`: each recommended key, against the user's framework version.

DESIGN principle 3. The verdict is `verify.verify_key`'s (the bundled schema snapshots),
for the version the `--env` listing gives, else the one the answer states, else the
newest snapshot. A key the answer itself marks `[unverified key]` says so already. A
new value equal to the default is no change when the run was on the default (its
before value unset, unstated or the default); moving a key the user set back to its
default (`fp16`: `true` → `false`) is a change.
"""

from __future__ import annotations

import yaml

from trainwreck.answer_check.context import Context
from trainwreck.answer_check.model import RuleResult
from trainwreck.answer_check.parse import Answer
from trainwreck.answer_check.rules.base import fail
from trainwreck.model import Scalar
from trainwreck.verify.guard import verify_key


def typed(text: str) -> Scalar | list[Scalar]:
    """A value as written (`true`, `64`, `bf16`) as the schema's default is typed."""
    try:
        loaded = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return loaded if isinstance(loaded, (str, int, float, bool, list)) else text


# How a before value says the run never set the key.
UNSET = frozenset({"unset", "default", "none", "not set"})


def _on_default(before: str | None, default: object) -> bool:
    return before is None or before.lower() in UNSET or typed(before) == default


def rule(answer: Answer, context: Context) -> list[RuleResult]:
    found = []
    for change in (c for step in answer.fixes for c in step.changes):
        after = typed(change.after) if change.after is not None else None
        verdict = verify_key(change.path, after, context.versions)
        where = f"{verdict.framework} {verdict.version}"
        if (
            verdict.applicable
            and verdict.framework
            and not verdict.exists
            and not change.unverified
        ):
            renamed = f" (renamed to `{verdict.replaced_by}`)" if verdict.replaced_by else ""
            found.append(
                fail(
                    "unknown-key", change.line, f"`{change.path}` is not a key of {where}{renamed}"
                )
            )
        elif verdict.is_default and _on_default(change.before, verdict.default):
            found.append(
                fail(
                    "default-as-fix",
                    change.line,
                    f"`{change.path}` → `{change.after}` is the default of {where}: no change",
                )
            )
    return found
