"""Context gating: a page ranks only where the run's context lets it apply.

Two gates, both measured on first-sight cases where they decided most wrong
top answers:
- framework, hardware and phase: a page that `requires` DeepSpeed, vLLM, JAX, flash-attn,
  ... is demoted when the evidence never shows that framework, a page about Apple MPS or
  a TPU when the run shows other hardware, a page about an install step when the run
  failed in another phase, and a page whose title rests on a setup the
  user says the run does not use ("no fp16/AMP involved") or that the whole script shown
  never turns on, unless a signature specific to
  it matched (then the log itself is the evidence the framework or device was there);
- the OOM's course: when the user says memory grows over the run, an out-of-memory page
  whose cause takes its memory at once is demoted, unless its own message matched;
- stated class: a page outside the failure class the user's words state is
  demoted, less so for a class that often travels with it (a NaN and a loss
  spike, or the three kinds of error a traceback can end in), and less when a
  specific signature matched the log (log evidence that outweighs the words; a
  code finding does not: it shows what the code could do, not what this run did);
  a demotion the log does not outweigh is noted, which keeps the page a guess;
  with no words from the user, the class of the exception that ended the run
  stands in for them, more weakly.
"""

from __future__ import annotations

from trainwreck.context.denied import rests_on
from trainwreck.context.frameworks import (
    ANY_STACK,
    NOT_TORCH,
    TORCH_STACK,
    with_foundations,
    without_torch,
)
from trainwreck.engine.match import Match
from trainwreck.kb.schema import Pattern
from trainwreck.model import Category, RunContext

# A signature this strong names its page's failure on its own (by the KB's weight scale,
# 0.8 and above are the messages page authors took as unique to the failure).
SPECIFIC_WEIGHT = 0.8
# A code detector's finding names the cause in the user's own code, file:line: as direct
# as the error message itself, so a strong one counts as specific.
CODE_FINDING = "code."
# Findings that compare what each rank printed or recorded (which rank raised, which
# collective each rank waited in, where their flight recorders differ): read from the
# run's own output, line by line, so a strong one counts as specific like a message.
RANK_FINDINGS = ("ranks.", "collective.")
# Findings that factor the numbers the error message itself prints (524288 = 512·32·32
# against 25088 = 512·7·7): arithmetic on the message, so a strong one counts as specific.
# An allocation's size does not: an n x n matrix is as much a (N, 1) - (N,) broadcast as a
# pairwise distance matrix (batch-20's eval OOM reproduction was High on the wrong one).
ERROR_ARITHMETIC = ("shape.",)
# Findings that set two facts the log prints against a published table (the GPU's compute
# capability against the first CUDA release for it): as specific as the error's own line.
LOGGED_PAIRS = ("gpu.cuda_older_than_architecture",)
# Demotions: enough that a gated page falls below any page that fits (scores are 0-1).
FRAMEWORK_ABSENT_FACTOR = 0.3
OFF_CLASS_FACTOR = 0.3
# A setup the user says the run does not use (an fp16 page when they write "no fp16") is
# absent twice over: not seen, and denied in words; at FRAMEWORK_ABSENT_FACTOR alone an fp16
# page stayed third in batch-8's float32 attention-pooling reproduction.
DENIED_SETUP_FACTOR = FRAMEWORK_ABSENT_FACTOR**2
OFF_CLASS_SPECIFIC_FACTOR = 0.6  # a specific log signature outweighs part of the statement
# A class that travels with the stated one keeps more, but not enough to pass an in-class
# page of equal strength: at 0.85 the top left the stated class on 31 of the 577 first-sight
# cases that state one (batches 1-11), at 0.7 on 23, with no judged-right top lost.
RELATED_CLASS_FACTOR = 0.7
# When the user states nothing, the exception that ended the run states a class, less
# firmly: a cascade (a timeout after a crash on another rank) can end a log too.
OFF_LOGGED_CLASS_FACTOR = 0.6
# A page about another phase (an install step in a run that failed while training) is as
# far from the run as a page for an absent framework.
OTHER_PHASE_FACTOR = FRAMEWORK_ABSENT_FACTOR
# An OOM page whose memory does not grow, when the user says memory grows: the course
# argues against it as firmly as a related class does against an in-class page.
STEADY_MEMORY_FACTOR = RELATED_CLASS_FACTOR
RELATED_CLASSES: tuple[frozenset[Category], ...] = (
    frozenset({"nan_inf", "divergence"}),
    frozenset({"crash", "config_error", "dependency_conflict"}),
)


def specific_hit(match: Match | None, *, code: bool = True) -> bool:
    """Whether a signature strong enough to name the page on its own matched: a log
    line, an exception, a finding that compares the ranks' own output or factors the
    error's own numbers (with `code`, a strong code finding counts too)."""
    if match is None:
        return False
    return any(
        hit.signature.weight >= SPECIFIC_WEIGHT
        and (
            hit.signature.regex is not None
            or hit.signature.exception is not None
            or (hit.signature.finding or "").startswith(
                (*RANK_FINDINGS, *ERROR_ARITHMETIC, *LOGGED_PAIRS)
            )
            or (code and (hit.signature.finding or "").startswith(CODE_FINDING))
        )
        for hit in match.hits
    )


def missing_frameworks(pattern: Pattern, context: RunContext) -> tuple[str, ...]:
    """What the page needs that the run does not show; () when it fits.

    A page lists what it `requires` (any one); a page about the torch stack does
    not apply to a run that shows only JAX, TensorFlow/Keras or llama.cpp, unless it also
    names that stack (a TPU page for JAX and torch-xla in a JAX run); a plain-Python
    page does, and so does one that names Python beside torch.
    """
    seen = with_foundations(context.frameworks)  # a TRL run runs transformers too
    if pattern.requires:
        return () if seen & set(pattern.requires) else pattern.requires
    named = set(pattern.frameworks)
    if without_torch(seen) and named & TORCH_STACK and not named & ((seen & NOT_TORCH) | ANY_STACK):
        return (*sorted(named & NOT_TORCH), "pytorch")
    return ()


def other_hardware(pattern: Pattern, context: RunContext) -> bool:
    """Whether the run shows hardware the page is not about (an MPS page in a CUDA run);
    a run that names no hardware is held to nothing."""
    return bool(pattern.hardware) and context.hardware not in (None, *pattern.hardware)


def fits(pattern: Pattern, context: RunContext) -> bool:
    """Whether the run shows what the page needs: one of its frameworks, its hardware."""
    return not missing_frameworks(pattern, context) and not other_hardware(pattern, context)


def related(first: Category, second: Category) -> bool:
    return first == second or any({first, second} <= group for group in RELATED_CLASSES)


def _absent_setup(title: str, context: RunContext) -> tuple[str, float] | None:
    """Why the run lacks a setup the page's title rests on, and what that keeps of the
    page: the user denies it, or the whole script shown never turns it on (the user's word
    first); None when it has it."""
    if denied := rests_on(title, context.denied):
        return f"your description says the run uses no {', '.join(denied)}", DENIED_SETUP_FACTOR
    if unset := rests_on(title, context.unset):
        why = f"the script you gave never turns on {', '.join(unset)}"
        return why, FRAMEWORK_ABSENT_FACTOR
    return None


def gate_factor(
    pattern: Pattern, match: Match | None, context: RunContext
) -> tuple[float, list[str]]:
    """How much the context keeps of a candidate's strength, and why it took any away."""
    factor, notes = 1.0, []
    specific = specific_hit(match)
    missing = missing_frameworks(pattern, context)
    if missing and not specific:
        factor *= FRAMEWORK_ABSENT_FACTOR
        notes.append(f"the evidence never shows {', '.join(missing)}")
    if other_hardware(pattern, context) and not specific:
        factor *= FRAMEWORK_ABSENT_FACTOR
        notes.append(f"the run shows {context.hardware}, not {', '.join(pattern.hardware)}")
    if pattern.phases and context.phase not in (None, *pattern.phases) and not specific:
        factor *= OTHER_PHASE_FACTOR
        notes.append(f"the run failed in {context.phase}, not {', '.join(pattern.phases)}")
    absent = _absent_setup(pattern.title, context)
    if absent and not specific:
        why, kept = absent
        factor *= kept
        notes.append(why)
    steady = "oom" in pattern.classes and not pattern.memory_grows
    if context.memory_grows and steady and not specific:
        factor *= STEADY_MEMORY_FACTOR
        notes.append(
            f'you say memory grows over the run ("{context.memory_grows[0]}"); '
            "this cause takes its memory at once"
        )
    if pattern.any_class:
        return factor, notes
    stated = context.stated
    if stated is not None and stated.category not in pattern.classes:
        # a code finding shows the code could fail this way, not that this run did:
        # only the log's own message outweighs what the user says happened
        logged_specific = specific_hit(match, code=False)
        words = ", ".join(f'"{word}"' for word in stated.words[:3])
        if any(related(kind, stated.category) for kind in pattern.classes):
            factor *= RELATED_CLASS_FACTOR
            if not logged_specific:
                notes.append(f"your description states {stated.category} ({words})")
        else:
            factor *= OFF_CLASS_SPECIFIC_FACTOR if logged_specific else OFF_CLASS_FACTOR
            notes.append(f"your description states {stated.category} ({words})")
    logged = context.logged
    if (
        stated is None
        and logged is not None
        and not any(related(kind, logged.category) for kind in pattern.classes)
    ):
        factor *= OFF_LOGGED_CLASS_FACTOR
        notes.append(f"the run ended in {logged.category} ({logged.words[0][:60]})")
    return factor, notes
