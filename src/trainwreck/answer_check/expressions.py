# ruff: noqa: RUF001, RUF002, RUF003
# (× and − are how people write arithmetic, so the patterns and their documentation hold them.)
"""Arithmetic as people write it in an answer, read exactly: `2 × 28 layers × 4 B = 224 B`.

An expression is numbers (with a unit or a count suffix) joined by × x * · ÷ / + − ^
and parentheses, `ceil(...)` or `⌈...⌉`; words after a number label it (`28 layers`),
one or two before it name it (`/ TP 1`). A parenthesis after a word or number is an
annotation and is dropped (`4 B (bf16)`); after an operator it groups. A trailing
`/ N GPUs` divides all that precedes it, as our reports write sharding. An equation
is an expression beside `=`, `≈` or `~` and what stands on the other side.

Numbers are evaluated as fractions, so whole-number arithmetic stays exact. Sizes are
read as analyzers/units.py reads them (KB, MB, GB decimal); because people also write
GB for GiB and 32k for 32,768, everything is evaluated twice, in the decimal reading
and in the binary one. `7B` and `7.6 B params` are counts, `2 B` is two bytes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from trainwreck.analyzers.units import to_bytes

MAX_LABEL_WORDS = 4  # "4 B fp32 master copy": the longest operand label our reports print
MAX_PREFIX_WORDS = 2  # "/ TP 1": a short name before an operand
MAX_EXPONENT = 64  # 2^64 bytes is past any memory; a larger power is not worth evaluating
MAX_OPERANDS = 64  # our longest formula has 8 numbers; past 64 a line is a list, not arithmetic
MAX_DEPTH = 16  # nested parentheses; our formulas nest two deep
# 10^40 bytes or items is past anything a run holds: such a value is no arithmetic about it
MAX_MAGNITUDE = 10**40

# Bounded as analyzers/units.py bounds its sizes (32 digits), the exponent to two digits:
# an unbounded `1e99999999` would make an exact fraction of a hundred million digits.
_NUMBER = (
    r"\d{1,3}(?:,\d{3}){1,10}(?:\.\d{1,32})?|\d{1,32}(?:\.\d{1,32})?(?:[eE][-+]?\d{1,2})?"
    r"|\.\d{1,32}"
)
_TOKEN = re.compile(
    rf"(?P<num>{_NUMBER})"
    r"(?P<count>[kKMBT](?![A-Za-z])|\s*[MBT](?=\s*(?:params?|parameters|tokens)\b)"
    r"|\s*(?:thousand|million|billion|trillion)\b)?"
    r"(?P<unit>\s*(?:[KkMGT]i?B|bytes?|B)\b|\s*%)?"
    r"|(?P<eq>~=|≈|≃|(?<![=!<>])=(?!=)|~(?=\s*\d))"
    r"|(?P<func>(?:ceil|floor)(?=\s*\()|[⌈⌊])"
    r"|(?P<op>\*\*|\^|[×*·÷/+−]|(?<![\w-])x(?!\w)|(?<=\s)-(?=\s))"
    r"|(?P<lp>[(\[])|(?P<rp>[)\]⌉⌋])"
    r"|(?P<call>[A-Za-z_][\w.]*(?=\())"  # ln(...), max(...): functions not evaluated
    r"|(?P<word>--[A-Za-z][\w-]*|[A-Za-z_][\w.\-]*(?::[\w.\-]+)*)"
    r"|(?P<space>\s+)|(?P<stop>.)"
)
_OPS = {"×": "*", "x": "*", "*": "*", "·": "*", "÷": "/", "/": "/", "+": "+", "−": "-"}
_OPS |= {"-": "-", "^": "**", "**": "**"}
_COUNTS = {"k": 10**3, "m": 10**6, "b": 10**9, "t": 10**12, "thousand": 10**3}
_COUNTS |= {"million": 10**6, "billion": 10**9, "trillion": 10**12}
_DECIMAL_SIZE = re.compile(r"[KkMGT]B")
_STARTS = ("num", "lp", "func")
_SHARDS = re.compile(r"(?i)^(?:gpus?|ranks?|devices?|shards?|nodes?|workers?)$")
_GROUP = re.compile(r"[(\[]([^()\[\]\x01\x02]*)[)\]]")
_LINK, _URL = re.compile(r"\[([^\]]*)\]\([^)\s]*\)"), re.compile(r"https?://\S+")
# bold and italic marks (never `2**30`), escaped table pipes, code marks
_MARKUP = re.compile(r"(?<!\d)\*\*|\*\*(?!\d)|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|\\\||`")


@dataclass(frozen=True)
class Token:
    kind: str  # num, eq, func, call, op, lp, rp, word, stop
    text: str  # an operator normalised to *, /, +, -, **
    digits: str = ""  # a number as written, without thousands separators
    count: str = ""  # k, B, billion ...
    unit: str = ""  # GiB, GB, B, bytes, %

    @property
    def number(self) -> Fraction:
        return Fraction(self.digits)

    @property
    def plain(self) -> bool:
        """A whole number of items or bytes, read the same in either reading."""
        bytes_or_none = self.unit.lower() in ("", "b", "byte", "bytes")
        return self.digits.isdigit() and not self.count and bytes_or_none

    def scale(self, binary: bool) -> Fraction:
        """What one written unit of this number is worth (bytes, items or a fraction)."""
        count = (
            2**10 if binary and self.count.lower() == "k" else _COUNTS.get(self.count.lower(), 1)
        )
        if self.unit == "%":
            return Fraction(count, 100)
        unit = {"byte": "bytes", "": "B"}.get(self.unit, self.unit)
        if binary and _DECIMAL_SIZE.fullmatch(unit):
            unit = unit[0].upper() + "iB"
        return Fraction(count * (to_bytes(f"1 {unit}") or 1))

    def resolution(self, binary: bool, approximate: bool) -> Fraction:
        """One unit of the last digit written (trailing zeros count only after `≈`)."""
        if "." in self.digits:
            step = Fraction(1, 10 ** len(self.digits.split(".")[1].split("e")[0]))
        elif approximate and self.digits.isdigit():
            step = Fraction(10 ** (len(self.digits) - len(self.digits.rstrip("0"))))
        else:
            step = Fraction(1)
        return step * self.scale(binary)


def tokens(text: str) -> list[Token]:
    found = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "stop"
        value = match.group(0).strip()
        if kind in ("num", "count", "unit"):  # count and unit are a number's optional tails
            count, unit = (match.group(name) or "" for name in ("count", "unit"))
            digits = match.group("num").replace(",", "")
            found.append(Token("num", value, digits, count.strip(), unit.strip()))
        elif kind == "func" and value in ("⌈", "⌊"):
            found += [Token("func", "ceil" if value == "⌈" else "floor"), Token("lp", "(")]
        elif kind != "space":
            found.append(Token(kind, _OPS.get(value, value) if kind == "op" else value))
    return found


class _NoParse(Exception):
    """The tokens from here on are not one arithmetic expression."""


@dataclass(frozen=True)
class Expr:
    value: Fraction
    start: int  # token indexes
    end: int
    ops: int
    operands: tuple[Token, ...]
    divides: bool


@dataclass
class _Reader:
    """Recursive descent over tokens, evaluating exactly as it goes."""

    tokens: Sequence[Token]
    binary: bool
    limit: int  # the tokens from here on belong to another expression
    ops: int = 0
    depth: int = 0
    divides: bool = False
    operands: list[Token] = field(default_factory=list)

    def kind(self, at: int) -> str:
        return self.tokens[at].kind if at < self.limit else "end"

    def op(self, at: int) -> str:
        return self.tokens[at].text if self.kind(at) == "op" else ""

    def sum(self, at: int) -> tuple[Fraction, int]:
        value, at = self.product(at)
        while (op := self.op(at)) in ("+", "-"):
            right, at = self.product(at + 1)
            value, self.ops = (value + right if op == "+" else value - right), self.ops + 1
        return value, at

    def product(self, at: int) -> tuple[Fraction, int]:
        value, at = self.power(at)
        while (op := self.op(at)) in ("*", "/"):
            right, at = self.power(at + 1)
            self.ops, self.divides = self.ops + 1, self.divides or op == "/"
            value = value * right if op == "*" else value / right
        return value, at

    def power(self, at: int) -> tuple[Fraction, int]:
        value, at = self.operand(at)
        if self.op(at) == "**":
            exponent, at = self.operand(at + 1)
            if exponent.denominator != 1 or abs(exponent) > MAX_EXPONENT:
                raise _NoParse
            value, self.ops = value ** int(exponent), self.ops + 1
        return value, at

    def operand(self, at: int) -> tuple[Fraction, int]:
        at = self.words(at, MAX_PREFIX_WORDS)
        kind = self.kind(at)
        if kind == "num" and len(self.operands) < MAX_OPERANDS:
            token = self.tokens[at]
            self.operands.append(token)
            value, at = token.number * token.scale(self.binary), at + 1
        elif kind in ("lp", "func") and self.depth < MAX_DEPTH:
            func = self.tokens[at].text if kind == "func" else ""
            at += 1 if func else 0
            if self.kind(at) != "lp":
                raise _NoParse
            self.depth += 1
            value, at = self.sum(at + 1)
            self.depth -= 1
            if self.kind(at) != "rp":
                raise _NoParse
            at += 1
            if func:
                value = Fraction(math.ceil(value) if func == "ceil" else math.floor(value))
        else:
            raise _NoParse
        return value, self.words(at, MAX_LABEL_WORDS)

    def words(self, at: int, most: int) -> int:
        for _ in range(most):
            if self.kind(at) != "word":
                break
            at += 1
        return at


def _parse(tokens: Sequence[Token], start: int, binary: bool, limit: int) -> Expr | None:
    reader = _Reader(tokens, binary, min(limit, len(tokens)))
    try:
        value, end = reader.sum(start)
    except (_NoParse, ZeroDivisionError, OverflowError, ValueError):
        return None
    if abs(value) > MAX_MAGNITUDE or value.denominator > MAX_MAGNITUDE:
        return None
    return Expr(value, start, end, reader.ops, tuple(reader.operands), reader.divides)


def evaluate(tokens: Sequence[Token], start: int, binary: bool, limit: int) -> Expr | None:
    """The expression from `start` (before `limit`); a last `/ N GPUs` divides all before it."""
    whole = _parse(tokens, start, binary, limit)
    if whole is None:
        return None
    depth, last = 0, -1
    for at in range(start, whole.end):
        depth += {"lp": 1, "rp": -1}.get(tokens[at].kind, 0)
        last = at if depth == 0 and tokens[at].kind == "op" else last
    shard = tokens[last + 1 : last + 3] if last >= 0 and tokens[last].text == "/" else []
    if len(shard) < 2 or shard[0].kind != "num" or not _SHARDS.match(shard[1].text):
        return whole
    head = _parse(tokens, start, binary, last)
    if head is None or head.end != last or whole.end != last + 3:
        return whole
    divisor = shard[0].number * shard[0].scale(binary)
    if not divisor:
        return None
    operands = (*head.operands, shard[0])
    ops, value = head.ops + 1, head.value / divisor
    return replace(head, value=value, end=whole.end, ops=ops, operands=operands, divides=True)


def _ending_at(tokens: Sequence[Token], low: int, high: int, binary: bool) -> Expr | None:
    """The longest expression that ends where the segment does (just before an `=`)."""
    for start in range(low, high):
        if tokens[start].kind not in _STARTS:
            continue
        if start > low and tokens[start - 1].kind in ("op", "lp", "func", "call"):
            continue  # a tail of a longer expression that did not parse
        expr = evaluate(tokens, start, binary, high)
        if expr is not None and expr.end == high:
            return expr
    return None


@dataclass(frozen=True)
class Equation:
    """A computed side and the stated side it must reproduce, in both readings."""

    approximate: bool  # `≈` or `~`: trailing zeros of the stated value are not significant
    computed: tuple[Expr, Expr]  # decimal reading, binary reading
    stated: tuple[Expr, Expr]

    def single(self, reading: int = 0) -> Token | None:
        """The stated side's one number, when it is one."""
        stated = self.stated[reading]
        return stated.operands[0] if stated.ops == 0 and len(stated.operands) == 1 else None


def equations(tokens: Sequence[Token]) -> list[Equation]:
    """Each `=` with an expression on one side and a value (or expression) on the other."""
    cuts = [at for at, token in enumerate(tokens) if token.kind == "eq"]
    bounds = [-1, *cuts, len(tokens)]
    found = []
    for n, cut in enumerate(cuts):
        if cut + 1 >= len(tokens) or tokens[cut + 1].kind not in _STARTS:
            continue
        (left, right), (left_b, right_b) = (
            (
                _ending_at(tokens, bounds[n] + 1, cut, binary),
                evaluate(tokens, cut + 1, binary, bounds[n + 2]),
            )
            for binary in (False, True)
        )
        if left is None or right is None or left_b is None or right_b is None:
            continue
        if left.ops or right.ops:
            pairs = ((left, left_b), (right, right_b))
            computed, stated = pairs if left.ops else pairs[::-1]
            found.append(Equation(tokens[cut].text != "=", computed, stated))
    return found


def computes(text: str) -> bool:
    """Numbers joined by an operator (labels and a short name around them allowed)."""
    found = tokens(text)

    def reaches(side: Iterable[Token]) -> bool:
        for token in side:
            if token.kind == "num":
                return True
            if token.kind not in ("word", "lp", "rp"):
                return False
        return False

    return any(
        token.kind == "op"
        and reaches(reversed(found[max(0, at - 1 - MAX_LABEL_WORDS) : at]))
        and reaches(found[at + 1 : at + 2 + MAX_PREFIX_WORDS])
        for at, token in enumerate(found)
    )


def clean(text: str) -> str:
    """The text an expression is read from: links, markup and annotations removed."""
    text = _URL.sub(" ", _LINK.sub(r"\1", text))
    text = _MARKUP.sub(" ", text)
    while (match := _GROUP.search(text)) is not None:
        before = text[: match.start()].rstrip()
        noted = before[-1:].isalnum() or before[-1:] in ("%", "_", ".", "\x02")
        if noted and not before.endswith(("ceil", "floor")) and not computes(match[1]):
            kept = " " * len(match[0])
        else:  # a group; marked so the search moves past it
            kept = f"\x01{match[1]}\x02"
        text = text[: match.start()] + kept + text[match.end() :]
    return text.replace("\x01", "(").replace("\x02", ")")


def expression_text(tokens: Sequence[Token], expr: Expr) -> str:
    """An expression as its tokens read (annotations left out), for messages."""
    text = " ".join(token.text for token in tokens[expr.start : expr.end])
    return re.sub(r"\( | \)", lambda m: m[0].strip(), text.replace(" * ", " × "))
