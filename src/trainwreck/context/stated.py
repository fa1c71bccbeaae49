"""The failure class the user's words state (the final exception's is `logged.py`).

More than half of the wrong top answers measured on first-sight cases were in
another class than the one the symptoms named ("hangs when saving" answered
with an fp16 NaN page), so the statement is read before anything is ranked.
Each class has one pattern of the phrases that state it (class_phrases.py). A
class's phrases that also belong to a stronger statement are taken by that one
first: "loss is stuck" is divergence, not a hang, so divergence is read first
and its words are masked out.
"""

from __future__ import annotations

import re

from trainwreck.context.class_phrases import SYMPTOM_RULES
from trainwreck.context.logged import text_class
from trainwreck.context.unstated import stating_words
from trainwreck.model import Category, StatedClass

# An exception type quoted in a description, with the message that follows it up to the end
# of its sentence (a dot inside a dotted name, 'jax.numpy', does not end it).
# An exception's name, or CUDA's own "CUDA error: ..." (batch-21's "no kernel image" thread
# quoted no exception name and stated no class).
_QUOTED_EXCEPTION = re.compile(
    r"\b(?:[A-Z]\w*(?:Error|Exception)\b:?|CUDA error:)(?:[^\n.]|\.(?=\w)){0,160}"
)


# An error the user quotes speaks the library's words, not the user's: "TypeError: Got
# unsupported ScalarType BFloat16" states no refused setting. The weak config words are read
# outside such quotes (in the lowered text); the quote states its own class through `refined`.
_QUOTED_ERROR = re.compile(
    r"`[^`]*?\w(?:error|exception)\b[^`]*`|\"[^\"]*?\w(?:error|exception)\b[^\"]*\"|"
    r"\b\w+(?:error|exception):(?:[^.]|\.(?=\w))*"
)


def from_symptoms(symptoms: str | None) -> StatedClass | None:
    """The class the user's description states, or None when it states none.

    The class with the most stating phrases wins; on a tie, the one read first.
    With no stating phrase, a quoted exception states its class.
    """
    if not symptoms:
        return None
    text = stating_words(" ".join(symptoms.lower().split()))
    found: list[tuple[Category, tuple[str, ...]]] = []
    for category, rule in SYMPTOM_RULES:
        read = _QUOTED_ERROR.sub(" ", text) if category == "config_error" else text
        words = tuple(dict.fromkeys(m.group(0) for m in rule.finditer(read)))
        if words:
            found.append((category, words))
            text = rule.sub(" ", text)
    if not found:
        return _quoted_exception(symptoms)
    category, words = max(found, key=lambda item: len(item[1]) if item[0] != "crash" else 0)
    return refined(
        StatedClass(category=category, source="symptoms", words=words), _quoted_exception(symptoms)
    )


# A crash is what the user sees; a refused setting or a package mismatch is what kind of crash
# it was. On the first-sight batches, 35 of the 56 tops outside the class users stated were
# such a refinement of a stated crash (the quoted error was a refused flag, a removed API).
# A worker "dies with ... killed by signal: Killed" was killed for memory: an OOM.
CRASH_KINDS: frozenset[Category] = frozenset({"config_error", "dependency_conflict", "oom"})


def refined(stated: StatedClass | None, error: StatedClass | None) -> StatedClass | None:
    """A stated crash read as the kind of crash its error (quoted by the user, or ending
    the log) states; any other statement stands as it is."""
    if stated is None or error is None or stated.category != "crash":
        return stated
    if error.category not in CRASH_KINDS:
        return stated
    return StatedClass(
        category=error.category, source="symptoms", words=(*stated.words, *error.words)
    )


def ran_out(stated: StatedClass | None, memory_grows: tuple[str, ...]) -> StatedClass | None:
    """A stated crash after memory the user says grows is the out-of-memory it ended in
    (batch-29's MLX thread: "the active memory keeps going up until the run crashes")."""
    if stated is None or stated.category != "crash" or not memory_grows:
        return stated
    return StatedClass(category="oom", source="symptoms", words=(*memory_grows, *stated.words))


def _quoted_exception(symptoms: str) -> StatedClass | None:
    """A description that states no class in words but quotes the error ("fails with
    ValueError: Target modules ... not found") states the class that error does."""
    quoted = _QUOTED_EXCEPTION.search(symptoms)
    if quoted is None:
        return None
    return StatedClass(
        category=text_class(quoted.group(0)), source="symptoms", words=(quoted.group(0)[:160],)
    )
