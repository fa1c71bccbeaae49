# ruff: noqa: RUF001, RUF002, RUF003
# (× and − are how people write arithmetic, so the messages and documentation hold them.)
"""An answer's arithmetic: every computation's inputs named, every result reproduced.

Our reports print each input of their arithmetic with where it came from, and issue 23
holds any answer to the same rule. A computation is a prose line or a table row, outside
fenced code, where numbers are combined and a result follows `=`, `≈` or `~` (how an
expression is read: expressions.py). Three rules:

- `arithmetic-unsourced`: the line names none of statements.SOURCES. In a table with a source
  column (`Source`, `inputs from`, ...) only that cell counts, and there TABLE_SOURCES
  (`computed`, `proposed`, ...) count too: they point at the rows above or the fix.
- `arithmetic-wrong`: a result more than RELATIVE_TOLERANCE (plus half a unit of its
  last written digit) off what its written expression gives, in both readings of
  decimal units; whole-number arithmetic must match exactly, and steps per epoch round
  up. Also a byte width that is not its dtype's (`2 B (fp32)`, against memory/budget.py's
  DTYPE_BYTES), and Adam state under ADAM_MOMENTS fp32 moments per parameter (plus the
  fp32 master copy when the line keeps one) on a line that says its states are fp32.
- `kv-from-attention-heads`: on a grouped-query model of the user's configs, a KV-cache
  computation that multiplied by num_attention_heads (its count, its name, or
  hidden_size = heads × head_dim) though K and V exist only for num_key_value_heads;
  the right size beside it, per token from memory/serving.py's kv_bytes_per_token.

A line reports each rule at most once, the first problem found.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from trainwreck.answer_check.expressions import (
    Equation,
    Token,
    computes,
    equations,
    expression_text,
    tokens,
)
from trainwreck.answer_check.statements import Statement, sourced, statements
from trainwreck.errors import TrainwreckError
from trainwreck.memory.architectures import Shape, shape_of
from trainwreck.memory.budget import DTYPE_BYTES, size_text
from trainwreck.memory.config import ModelConfig
from trainwreck.memory.serving import kv_bytes_per_token

Rule = Literal["arithmetic-unsourced", "arithmetic-wrong", "kv-from-attention-heads"]


# 2%: under the smallest slip these lines make (one layer of 32 left out is 3.1%, GiB written
# for GB 7.4%), over the drift of inputs rounded to three significant figures (<= 0.5% each).
RELATIVE_TOLERANCE = Fraction(2, 100)
ADAM_MOMENTS = 2  # exp_avg and exp_avg_sq per parameter: budget.py's adamw row
FP32 = DTYPE_BYTES["fp32"]  # Adam's moments and the master copy under mixed precision
# A number this large on an optimizer line is its parameter count: no language model has
# fewer parameters, and no batch, layer or head count comes near.
PARAM_COUNT_FLOOR = 10**6

DTYPE_NAMES = {"fp32": "fp32", "float32": "fp32", "bf16": "bf16", "bfloat16": "bf16"}
DTYPE_NAMES |= {"fp16": "fp16", "float16": "fp16", "half": "fp16"}
_DTYPE = "|".join(DTYPE_NAMES)
_DTYPE_NAMED = re.compile(rf"(?i)\b({_DTYPE})\b")
_WIDTH = re.compile(
    rf"(?i)(?<![\w.])(?P<width>\d+(?:\.\d+)?)\s*(?:B|bytes?)\b\s*\(?\s*(?P<dtype>{_DTYPE})\b"
    rf"|\b(?P<dtype2>{_DTYPE})\s*[(:]\s*(?P<width2>\d+(?:\.\d+)?)\s*(?:B|bytes?)\b"
)
_KV = re.compile(r"(?i)\bkv\b|\bkv[-_ ]?cache|key[-/ ]value|\bK and V\b")
_ATTENTION_NAME = re.compile(r"(?i)num_attention_heads|\battention heads\b|\bn_head\b")
_KV_NAME = re.compile(r"(?i)num_key_value_heads|\bkv[ _-]?heads\b|key[-/ ]value heads")
_ADAM = re.compile(r"(?i)\badam")
_NOT_FULL_ADAM = re.compile(r"(?i)8[- ]?bit|\bbnb\b|paged|adafactor")
_FP32_STATES = re.compile(r"(?i)\b(?:fp32|float32)\b")
_MASTER = re.compile(r"(?i)\bmaster\b")
_STEPS, _EPOCH = re.compile(r"(?i)\bsteps?\b"), re.compile(r"(?i)\bepochs?\b")


@dataclass(frozen=True)
class ArithmeticProblem:
    """One arithmetic line that breaks a rule, and the value it should have shown."""

    line: int  # 1-based line number in the answer
    rule: Rule
    message: str  # one sentence: what is wrong, with the recomputed value and its inputs
    expected: str | None  # the recomputed value as text ("12.0 GiB"), None when not recomputable


def _shown(value: Fraction, like: Token | None) -> str:
    """A recomputed value in the unit the answer wrote its result in."""
    if like is None or not (like.unit or like.count):
        if value.denominator == 1:
            return f"{int(value):,}"
        return f"{float(value):,.2f}" if abs(value) >= 1 else f"{float(value):.4g}"
    shown = float(value / like.scale(False))
    decimals = max(2, len(like.digits.split(".")[1]) if "." in like.digits else 0)
    if like.unit == "%":
        return f"{shown:.{decimals}f}%"
    return f"{shown:,.{decimals}f} {like.unit or like.count}"


def _recomputed(eq: Equation, steps: bool) -> tuple[Fraction, str] | None:
    """The value the stated side should hold and why, or None when it holds it in a reading;
    with `steps` (a steps-per-epoch line) a quotient rounds up."""
    single = eq.single()
    exact = not eq.approximate and single is not None and single.plain
    exact = exact and all(token.plain for token in eq.computed[0].operands)
    values = []
    for reading, binary in ((0, False), (1, True)):
        computed, stated = eq.computed[reading], eq.stated[reading].value
        value = (
            Fraction(math.ceil(computed.value)) if steps and computed.divides else computed.value
        )
        values.append(value)
        if exact and value.denominator == 1:
            if value == stated:
                return None
            continue
        token = eq.single(reading)
        allowed = RELATIVE_TOLERANCE * abs(value)
        allowed += token.resolution(binary, eq.approximate) / 2 if token else 0
        if abs(value - stated) <= allowed:
            return None
    if steps and eq.computed[0].divides:
        return values[0], "steps per epoch round up"
    if exact and values[0].denominator == 1:
        return values[0], "whole numbers must match exactly"
    off = abs(values[0] - eq.stated[0].value) / abs(values[0]) if values[0] else Fraction(1)
    return values[0], f"{float(off):.1%} off, over the {float(RELATIVE_TOLERANCE):.0%} tolerance"


def _wrong(
    statement: Statement, found: list[Token], eqs: list[Equation]
) -> Iterator[tuple[str, str | None]]:
    """(message, expected) for each result that does not reproduce, self-consistency first."""
    steps = bool(_STEPS.search(statement.raw) and _EPOCH.search(statement.raw))
    for eq in eqs:
        recomputed = _recomputed(eq, steps)
        if recomputed is not None:
            value, why = recomputed
            shown = _shown(value, eq.single())
            stated = expression_text(found, eq.stated[0])
            computed = expression_text(found, eq.computed[0])
            yield f"{computed} gives {shown}, not {stated} ({why})", shown
    for match in _WIDTH.finditer(statement.raw):
        dtype = DTYPE_NAMES[(match["dtype"] or match["dtype2"]).lower()]
        written = Fraction(match["width"] or match["width2"])
        if written != DTYPE_BYTES[dtype]:
            rescaled = _rescaled(eqs, written, Fraction(DTYPE_BYTES[dtype]))
            yield (
                f"{match[0].strip()!r} gives {dtype} {written} B per value, but {dtype} takes "
                f"{DTYPE_BYTES[dtype]} B" + (f", so the result is {rescaled}" if rescaled else ""),
                rescaled,
            )
    yield from _adam(statement, found, eqs)


def _rescaled(eqs: list[Equation], written: Fraction, right: Fraction) -> str | None:
    """The first result whose computation multiplied by `written`, redone with `right`."""
    for eq in eqs:
        computed = eq.computed[0]
        if any(token.number == written for token in computed.operands) and not computed.divides:
            return _shown(computed.value / written * right, eq.single())
    return None


def _adam(
    statement: Statement, found: list[Token], eqs: list[Equation]
) -> Iterator[tuple[str, str | None]]:
    """Adam's fp32 moments (and master copy) per parameter, below what the line says it keeps."""
    raw = statement.raw
    if not _ADAM.search(raw) or _NOT_FULL_ADAM.search(raw):
        return
    master = bool(_MASTER.search(raw))
    if not (master or _FP32_STATES.search(raw)):
        return  # states in the weights' dtype (pure bf16 training) are legitimate
    per_param = ADAM_MOMENTS * FP32 + (FP32 if master else 0)
    for eq in eqs:
        operands = eq.computed[0].operands
        counts = (token.number * token.scale(False) for token in operands if not token.unit)
        params, single = max(counts, default=Fraction(0)), eq.single()
        if eq.computed[0].divides or params < PARAM_COUNT_FLOOR or single is None:
            continue
        if not single.unit or single.unit == "%":
            continue
        if eq.stated[0].value < params * per_param * (1 - RELATIVE_TOLERANCE):
            expected = _shown(params * per_param, single)
            kept = f"{ADAM_MOMENTS} fp32 moments" + (" + an fp32 master copy" if master else "")
            yield (
                f"Adam keeps {kept} = {per_param} B per parameter, so {int(params):,} "
                f"parameters need {expected}, not {expression_text(found, eq.stated[0])}",
                expected,
            )


def _shapes(model_configs: Sequence[Mapping[str, Any]]) -> list[tuple[str, Shape]]:
    """The sizes of each config the user handed in; one whose sizes cannot be read is skipped,
    as evidence readers skip what they cannot read."""
    shapes = []
    for values in model_configs:
        name = str(values.get("_name_or_path") or "the model's config.json")
        try:
            shapes.append((name, shape_of(ModelConfig(values, name))))
        except (TrainwreckError, TypeError, ValueError, ArithmeticError):
            continue
    return shapes


def _attention_use(
    shape: Shape, factors: Counter[Fraction], raw: str
) -> tuple[Fraction, str] | None:
    """(KV heads / what the line used, what it used) when a KV line used the attention heads."""
    rest = factors.copy()
    for size in (shape.layers + shape.decoder_layers, shape.head_dim):
        rest[Fraction(size)] -= 1 if rest[Fraction(size)] else 0
    named = bool(_ATTENTION_NAME.search(raw)) and not _KV_NAME.search(raw)
    ratio = Fraction(shape.kv_heads, shape.heads)
    if rest[Fraction(shape.heads)] and (named or not rest[Fraction(shape.kv_heads)]):
        return ratio, f"{shape.heads} attention heads"
    if named and not factors:
        return ratio, "num_attention_heads"
    hidden, head_dim = Fraction(shape.hidden), Fraction(shape.head_dim)
    if factors[hidden] and not factors[head_dim] and not rest[Fraction(shape.kv_heads)]:
        used = f"hidden_size {shape.hidden} (= {shape.heads} heads × {shape.head_dim} head_dim)"
        return Fraction(shape.kv_heads * shape.head_dim, shape.hidden), used
    return None


def _kv(
    statement: Statement, found: list[Token], eqs: list[Equation], shapes: list[tuple[str, Shape]]
) -> Iterator[tuple[str, str | None]]:
    """A KV cache sized with the attention heads of a grouped-query model, and its right size."""
    if not shapes or not _KV.search(statement.raw):
        return
    eq = eqs[0] if eqs else None
    factors = Counter(token.number for token in eq.computed[0].operands) if eq else Counter()
    matching = [
        named for named in shapes if factors[Fraction(named[1].layers + named[1].decoder_layers)]
    ]
    if not matching and len(shapes) > 1:
        return
    name, shape = (matching or shapes)[0]
    use = _attention_use(shape, factors, statement.raw) if shape.kv_heads < shape.heads else None
    if use is None:
        return
    ratio, used = use
    named_dtype = _DTYPE_NAMED.search(statement.raw)
    dtype = DTYPE_NAMES[named_dtype[1].lower()] if named_dtype else "bf16"
    layers = shape.layers + shape.decoder_layers
    per_token = (
        f"2 × {layers} layers × {shape.kv_heads} KV heads × {shape.head_dim} head_dim × "
        f"{DTYPE_BYTES[dtype]} B ({dtype}{'' if named_dtype else ', assumed'}) = "
        f"{size_text(kv_bytes_per_token(shape, dtype))} per token"
    )
    sizes = [token for token in found if token.kind == "num" and token.unit]
    if eq is not None:
        base, like = eq.computed[0].value, eq.single()
    elif sizes:
        base, like = sizes[-1].number * sizes[-1].scale(False), sizes[-1]
    else:
        base, like = None, None
    expected = _shown(base * ratio, like) if base is not None else None
    yield (
        f"KV cache computed with {used} on {name}, a grouped-query model "
        f"(num_key_value_heads {shape.kv_heads} < num_attention_heads {shape.heads}): K and V "
        f"are cached for the KV heads only, {per_token}"
        + (f", so the result is {expected}" if expected else ""),
        expected,
    )


def _unsourced(statement: Statement, found: list[Token]) -> Iterator[tuple[str, None]]:
    computes_result = any(
        token.kind == "eq" and at + 1 < len(found) and found[at + 1].kind == "num"
        for at, token in enumerate(found)
    )
    if computes_result and computes(statement.text) and not sourced(statement):
        shown = " ".join(statement.text.split())
        yield (
            f"{shown[:120]!r} computes without naming where its inputs come from (a config key "
            "such as config.json:num_key_value_heads, a file:line, a quoted log line, a cited "
            "page, a --flag or [assumed])",
            None,
        )


def arithmetic_problems(
    lines: Sequence[tuple[int, str]], model_configs: Sequence[Mapping[str, Any]]
) -> list[ArithmeticProblem]:
    """Every arithmetic problem of the answer's lines, in line order, one per rule and line."""
    shapes = _shapes(model_configs)
    problems = []
    for statement in statements(lines):
        found = tokens(statement.text)
        eqs = equations(found)
        checks: tuple[tuple[Rule, Iterator[tuple[str, str | None]]], ...] = (
            ("arithmetic-unsourced", _unsourced(statement, found)),
            ("arithmetic-wrong", _wrong(statement, found, eqs)),
            ("kv-from-attention-heads", _kv(statement, found, eqs, shapes)),
        )
        for rule, check in checks:
            first = next(check, None)
            if first is not None:
                problems.append(ArithmeticProblem(statement.line, rule, *first))
    return problems
