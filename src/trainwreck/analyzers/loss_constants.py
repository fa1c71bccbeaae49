"""Loss values that are constants: chance level, exactly zero, the same every time.

A cross-entropy of ln C is what uniform predictions over C classes score
(ln 2 = 0.693, ln 3 = 1.0986, ln 10 = 2.3026, ln of the vocabulary for a
language model): a loss that stays there is a model at chance. A loss of
exactly 0.0 is not reached by learning a real task: it means the targets are
visible in the inputs, nothing is supervised, or the computation broke, and
how it got there tells which. The same value at every logged step means no
update happens at all.
"""

from __future__ import annotations

import math
from statistics import median

from trainwreck.analyzers.loss import Point, series
from trainwreck.analyzers.sizes import Size, of, sizes
from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding, SourceRef

FINDING_IDS: tuple[str, ...] = (
    "loss.chance_level",
    "loss.zero_from_start",
    "loss.zero_abrupt",
    "loss.zero_gradual",
    "loss.identical",
)

MIN_POINTS = 5  # logged values before a level counts as where the loss stays
CHANCE_TOLERANCE = 0.02  # relative distance to ln C (ln 9 and ln 10 are 4.8% apart)
FLAT = 0.1  # relative spread of the recent values that still counts as stuck
GUESSED_CLASSES = range(2, 11)  # C tried when the evidence states no class count
ABRUPT_FROM = 0.5  # a loss this high one logging step before 0.0 did not learn its way there
MIN_IDENTICAL = 3


def _line(label: str, formula: str, value: float | int | str, source: str) -> ArithmeticLine:
    return ArithmeticLine(label=label, formula=formula, value=value, source=source)


def _where(point: Point) -> str:
    return f"{point.line.source}:{point.line.line}"


def _ref(point: Point) -> SourceRef:
    return SourceRef(source=point.line.source, line=point.line.line, text=point.line.text)


def _classes(evidence: Evidence) -> list[Size]:
    return of(sizes(evidence), "classes", "vocab")


def _chance(points: list[Point], evidence: Evidence) -> Finding | None:
    recent = points[len(points) // 2 :]
    level = median(p.value for p in recent)
    spread = max(p.value for p in recent) - min(p.value for p in recent)
    if level <= 0 or spread > FLAT * level:
        return None
    stated = _classes(evidence)
    tried = [(size.value, size.source) for size in stated] or [
        (count, "[inferred] the C whose ln C the loss sits at") for count in GUESSED_CLASSES
    ]
    for count, source in tried:
        if abs(level - math.log(count)) <= CHANCE_TOLERANCE * math.log(count):
            return _chance_finding(recent, level, count, source)
    return None


def _chance_finding(recent: list[Point], level: float, count: int, source: str) -> Finding:
    chance = math.log(count)
    summary = (
        f"loss stuck at chance level: {level:.4g} ≈ ln {count} = {chance:.4f}, what uniform "
        f"predictions over {count} classes score; the model is not learning"
    )
    lines = (
        _line(
            "recent loss",
            f"median of the last {len(recent)} logged values",
            f"{level:.4f}",
            _where(recent[-1]),
        ),
        _line(
            "spread",
            "max - min of those values",
            f"{max(p.value for p in recent) - min(p.value for p in recent):.4f}",
            "computed",
        ),
        _line(
            "classes C",
            "inferred" if source.startswith("[inferred]") else "stated size",
            count,
            source,
        ),
        _line("chance loss", "ln C", f"{chance:.4f}", "computed"),
        _line(
            "distance", "|recent - ln C| / ln C", f"{abs(level - chance) / chance:.2%}", "computed"
        ),
    )
    return Finding(
        id="loss.chance_level",
        title=f"loss stuck at ln {count} = {chance:.4f}: chance-level predictions over {count}",
        category="divergence",
        summary=summary,
        evidence=(_ref(recent[0]), _ref(recent[-1])),
        values={"loss": round(level, 4), "classes": count},
        arithmetic=Arithmetic(title="Loss against chance level", lines=lines, result=summary),
    )


def _how_zero(before: list[Point]) -> tuple[str, str]:
    """(kind, what it means) from the logged values before the loss reached 0.0."""
    if not before:
        return "from_start", (
            "from the first logged step: nothing is supervised (every label masked) or the "
            "targets are in the inputs"
        )
    last = before[-1]
    if last.value >= ABRUPT_FROM:
        return "abrupt", (
            f"straight from {last.value:g} at step {last.step}: no model learns that fast, the "
            "loss computation broke (overflow, or every label masked from then on)"
        )
    return "gradual", (
        f"after falling steadily ({last.value:g} at step {last.step}): the model can see its "
        "targets (labels leak into the inputs, e.g. not shifted)"
    )


def _zero(points: list[Point], broken_at: int | None) -> Finding | None:
    """The loss reaches 0.0 and stays there for the rest of the log."""
    nonzero = [index for index, p in enumerate(points) if p.value != 0.0]
    start = nonzero[-1] + 1 if nonzero else 0
    zeros, before = points[start:], points[:start]
    if not zeros or (broken_at is not None and broken_at <= zeros[0].step):
        return None
    first = zeros[0]
    kind, why = _how_zero(before)
    summary = (
        f"loss 0.0 at the last {len(zeros)} of {len(points)} logged steps from step "
        f"{first.step}, {why}"
    )
    lines = [_line("zero values", "logged loss == 0.0", len(zeros), _where(first))]
    if before:
        last = before[-1]
        lines.append(_line("value before", "last nonzero logged loss", last.value, _where(last)))
    return Finding(
        id=f"loss.zero_{kind}",
        title=f"loss 0.0 from step {first.step} ({kind.replace('_', ' ')})",
        category="divergence",
        summary=summary,
        evidence=(_ref(first),),
        values={"first_zero_step": first.step, "zeros": len(zeros)},
        arithmetic=Arithmetic(title="Exact-zero loss", lines=tuple(lines), result=summary),
    )


def _identical(metric: str, points: list[Point]) -> Finding | None:
    values = {p.value for p in points}
    if len(points) < MIN_IDENTICAL or len(values) != 1 or 0.0 in values:
        return None
    value = points[0].value
    summary = (
        f"{metric} is {value:g} at every one of {len(points)} logged steps: the weights never "
        "change (no trainable parameters, a zero learning rate, or no optimizer step)"
    )
    lines = (
        _line("logged values", f"{metric} values read", len(points), _where(points[0])),
        _line("distinct values", "count", 1, _where(points[-1])),
    )
    return Finding(
        id="loss.identical",
        title=f"{metric} identical ({value:g}) at all {len(points)} logged steps: nothing trains",
        category="divergence",
        summary=summary,
        evidence=(_ref(points[0]), _ref(points[-1])),
        values={"loss": value, "points": len(points)},
        arithmetic=Arithmetic(title="Constant loss", lines=lines, result=summary),
    )


def _broken_at(evidence: Evidence, loss: list[Point]) -> int | None:
    """The first step at which the loss or the gradient norm was non-finite."""
    grad_norm = series(evidence.lines, "grad_norm")
    steps = [p.step for p in (*loss, *grad_norm) if not math.isfinite(p.value)]
    return min(steps, default=None)


def analyze(evidence: Evidence) -> list[Finding]:
    """Findings for a loss at chance level, exactly zero, or identical at every step."""
    found: list[Finding] = []
    logged = series(evidence.lines, "loss")
    loss = [p for p in logged if math.isfinite(p.value)]
    if loss and loss[-1].value == 0.0 and (zero := _zero(loss, _broken_at(evidence, logged))):
        found.append(zero)
    if len(loss) >= MIN_POINTS and (chance := _chance(loss, evidence)) is not None:
        found.append(chance)
    same = _identical("loss", loss)
    if same is None and any("eval" in line.text for line in evidence.lines):
        evaluated = [p for p in series(evidence.lines, "eval_loss") if math.isfinite(p.value)]
        same = _identical("eval_loss", evaluated)
    return [*found, same] if same is not None else found
