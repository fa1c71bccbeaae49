"""Our own fixes lead with what the user's version accepts: renamed keys, verified fixes first."""

from __future__ import annotations

from trainwreck.engine.assemble import to_hypothesis
from trainwreck.engine.rank import Candidate
from trainwreck.fixes.verify import concrete_fix, keys_verified
from trainwreck.kb import load
from trainwreck.kb.schema import PatternFix
from trainwreck.model import Evidence, RunContext, Setup

STRATEGY_PAGE = "load-best-model-strategy-mismatch"
# what the strategies analyzer read from `Evaluation strategy: no - Save strategy: steps`
STRATEGIES = {"eval_strategy": "no", "save_strategy": "steps"}


def _on(transformers: str) -> Evidence:
    return Evidence(setup=Setup(frameworks={"transformers": transformers}))


def _fix(path: str, after: object, action: str = "set it") -> PatternFix:
    return PatternFix.model_validate(
        {"action": action, "changes": [{"path": path, "after": after}]}
    )


def test_a_version_before_the_rename_gets_the_old_name_verified() -> None:
    # the KB page recommends eval_strategy, which transformers 4.36 still calls evaluation_strategy
    page = load().get(STRATEGY_PAGE)
    assert page is not None
    recipe = page.fixes[0]
    assert recipe.changes[0].path == "TrainingArguments.eval_strategy"
    fix, warnings = concrete_fix(recipe, STRATEGIES, _on("4.36.2"))
    (change,) = fix.changes
    assert (change.path, change.after, change.verified) == (
        "TrainingArguments.evaluation_strategy",
        "steps",
        True,
    )
    assert any(
        "is `TrainingArguments.evaluation_strategy` in transformers 4.36.2" in w for w in warnings
    )
    # the one-liner to check the recommended key stays in the warnings
    assert any("check: python -c" in w and "'eval_strategy' in" in w for w in warnings)
    # a version that has the recommended key keeps it
    (kept,) = concrete_fix(recipe, STRATEGIES, _on("4.46.3"))[0].changes
    assert (kept.path, kept.verified) == ("TrainingArguments.eval_strategy", True)


def test_a_version_after_the_rename_gets_the_new_name_verified() -> None:
    old_name = _fix("TrainingArguments.evaluation_strategy", "steps")
    (change,) = concrete_fix(old_name, {}, _on("5.0.0"))[0].changes
    assert (change.path, change.verified) == ("TrainingArguments.eval_strategy", True)
    (both,) = concrete_fix(old_name, {}, _on("4.46.3"))[0].changes  # both names accepted there
    assert both.path == "TrainingArguments.evaluation_strategy"


def test_a_key_with_no_name_in_the_users_version_stays_unverified() -> None:
    later = _fix("TrainingArguments.eval_on_start", True)  # first in the 4.42 snapshots
    fix, warnings = concrete_fix(later, {}, _on("4.36.2"))
    assert [c.verified for c in fix.changes] == [False]
    assert not keys_verified(fix, _on("4.36.2"))
    assert keys_verified(fix, _on("4.46.3"))
    assert any("not a key of transformers 4.36.2" in w for w in warnings)


def test_the_hypothesis_leads_with_the_fix_whose_keys_all_verify() -> None:
    page = load().get(STRATEGY_PAGE)
    assert page is not None
    unverifiable = _fix("TrainingArguments.eval_on_start", True, "evaluate before training")
    strategy = _fix("TrainingArguments.eval_strategy", "steps", "evaluate on the save schedule")
    pattern = page.model_copy(update={"fixes": (unverifiable, strategy)})
    candidate = Candidate(pattern=pattern, match=None, version_notes=(), strength=0.5, score=0.5)
    old, _ = to_hypothesis(candidate, None, _on("4.36.2"), RunContext())
    assert old.fixes[0].changes[0].path == "TrainingArguments.evaluation_strategy"
    assert old.fixes[-1].action == "evaluate before training"
    new, _ = to_hypothesis(
        candidate, None, _on("4.46.3"), RunContext()
    )  # every key verifies: KB order holds
    assert new.fixes[0].action == "evaluate before training"
