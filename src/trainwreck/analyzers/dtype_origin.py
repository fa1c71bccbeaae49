"""Where the odd dtype in a dtype-mismatch error came from.

The error names two floating-point types; which two says where the stray tensor
was made. Double (float64) is NumPy's default while torch's is float32, so a
Double meeting Float is data converted from NumPy without a cast. Half or
BFloat16 meeting Float is a 16-bit tensor meeting an fp32 one outside autocast
(a model cast to half with fp32 inputs, or a head left in fp32); a 16-bit type
other than the one the run asked for is a part of the stack that ignored it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from trainwreck.analyzers.said import Said, statements
from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding

FINDING_IDS: tuple[str, ...] = (
    "dtype.float64_input",
    "dtype.half_vs_bfloat16",
    "dtype.half_vs_float",
)

TORCH_DEFAULT = "https://pytorch.org/docs/2.0/generated/torch.get_default_dtype.html"
NUMPY_DEFAULT = (
    "https://numpy.org/doc/1.23/reference/random/generated/"
    "numpy.random.Generator.standard_normal.html"
)
FROM_NUMPY = "https://pytorch.org/docs/1.10/generated/torch.from_numpy.html"
SIXTEEN_BIT = frozenset({"Half", "BFloat16"})
_NAMES = {
    "double": "Double",
    "float64": "Double",
    "float": "Float",
    "float32": "Float",
    "half": "Half",
    "float16": "Half",
    "bfloat16": "BFloat16",
}
_REQUESTED = {"fp16": "Half", "bf16": "BFloat16"}
_TYPE = r"(?:torch\.(?:cuda\.)?)?(?:c10::|struct c10::)?[\w]+"
# (regex, what operand a is, what operand b is): `a` and `b` name the two dtypes
_MESSAGES: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (
        re.compile(
            r"(?:mat1 and mat2|self and mat2) must have the same dtype, "
            r"but got (?P<a>\w+) and (?P<b>\w+)"
        ),
        "input (mat1)",
        "weight (mat2)",
    ),
    (
        re.compile(
            r"expected m(?:at)?1 and m(?:at)?2 to have the same dtype, "
            rf"but got: (?P<a>{_TYPE}) != (?P<b>{_TYPE})"
        ),
        "input (mat1)",
        "weight (mat2)",
    ),
    (
        re.compile(rf"Input type \((?P<a>{_TYPE})\) and (?:weight|bias) type \((?P<b>{_TYPE})\)"),
        "input",
        "weight/bias",
    ),
    (
        re.compile(
            rf"RNN input dtype \((?P<a>{_TYPE})\) does not match weight dtype \((?P<b>{_TYPE})\)"
        ),
        "input",
        "weight",
    ),
    (
        re.compile(r"expected scalar type (?P<b>\w+) but found (?P<a>\w+)"),
        "tensor found",
        "type expected",
    ),
    (
        re.compile(r"Found dtype (?P<a>\w+) but expected (?P<b>\w+)"),
        "tensor found",
        "type expected",
    ),
    (
        re.compile(
            rf"Expected out tensor to have dtype (?P<b>{_TYPE}), but got (?P<a>\w+) instead"
        ),
        "result",
        "out tensor",
    ),
)
# Lines that say which dtype the data or the model was given.
KEEP: tuple[str, ...] = (r"\btorch\.float64\b|\bfrom_numpy\(|\b(?:torch_)?dtype\s*=\s*torch\.",)
_FLOAT64_SEEN = re.compile(r"\b(?:torch\.float64|dtype\('?float64'?\)|float64)\b|\bfrom_numpy\(")
_REQUESTED_TEXT = re.compile(r"\b(?:torch_)?dtype\s*=\s*torch\.(?P<dtype>float16|bfloat16|half)\b")


class Verdict(NamedTuple):
    finding_id: str
    title: str
    summary: str


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    a_role: str
    b_role: str
    said: Said


def normalise(name: str) -> str | None:
    """`torch.cuda.HalfTensor`, `c10::Half`, `half` -> `Half`; None for non-float types."""
    leaf = name.rsplit(".", 1)[-1].rsplit(":", 1)[-1].removesuffix("Tensor").lower()
    return _NAMES.get(leaf)


def _pair(evidence: Evidence) -> Pair | None:
    """The first message (in `_MESSAGES` order) that names two different float dtypes."""
    said_type = list(statements(evidence, "type"))
    for regex, a_role, b_role in _MESSAGES:
        for said in said_type:
            if (match := regex.search(said.text)) is None:
                continue
            a, b = normalise(match["a"]), normalise(match["b"])
            if a and b and a != b:
                return Pair(a, b, a_role, b_role, said)
            break
    return None


def _requested(evidence: Evidence) -> tuple[str, str] | None:
    """The 16-bit type the run asked for, and where: the setup's precision, else a dtype=."""
    precision = (evidence.setup.precision or "").lower()
    if precision in _REQUESTED:
        return _REQUESTED[precision], f"setup: precision {precision}"
    for said in statements(evidence, "dtype"):
        if (found := _REQUESTED_TEXT.search(said.text)) is not None:
            return normalise(found["dtype"]) or "Half", f"{said.where} ({found.group(0)!r})"
    return None


def _line(label: str, value: str, source: str, formula: str = "dtype") -> ArithmeticLine:
    return ArithmeticLine(label=label, formula=formula, value=value, source=source)


def _float64(pair: Pair, evidence: Evidence, lines: list[ArithmeticLine]) -> Verdict:
    role = pair.a_role if pair.a == "Double" else pair.b_role
    other = pair.b if pair.a == "Double" else pair.a
    lines += [
        _line("NumPy's default float", "float64", NUMPY_DEFAULT),
        _line("torch's default float", "float32", TORCH_DEFAULT),
        _line("torch.from_numpy keeps", "the array's dtype", FROM_NUMPY),
    ]
    seen = next(
        (
            said
            for said in statements(evidence, "float64", "from_numpy")
            if said is not pair.said and _FLOAT64_SEEN.search(said.text)
        ),
        None,
    )
    if seen is not None:
        lines.append(
            _line("float64 data in the run", seen.text.strip()[:80], seen.where, "printed")
        )
    title = f"float64 data from NumPy: the {role} is Double against {other}"
    summary = (
        f"{title}; float64 is NumPy's default float, and a tensor made from a NumPy array "
        "keeps it until cast with .float()"
    )
    return Verdict("dtype.float64_input", title, summary)


def _sixteen_bit(pair: Pair, evidence: Evidence, lines: list[ArithmeticLine]) -> Verdict:
    if {pair.a, pair.b} == SIXTEEN_BIT:
        title = f"fp16 meets bf16: the {pair.a_role} is {pair.a}, the {pair.b_role} {pair.b}"
        verdict = Verdict("dtype.half_vs_bfloat16", title, title)
    else:
        half, side = (pair.a, pair.a_role) if pair.a in SIXTEEN_BIT else (pair.b, pair.b_role)
        title = f"a 16-bit tensor meets fp32 outside autocast: the {side} is {half}"
        summary = (
            f"{title}, the other Float (a model cast to 16 bits fed fp32 inputs, or a head or "
            "adapter left in another dtype)"
        )
        verdict = Verdict("dtype.half_vs_float", title, summary)
    requested = _requested(evidence)
    if requested is None:
        return verdict
    lines.append(_line("dtype the run asked for", requested[0], requested[1], "stated"))
    stray = next((t for t in (pair.a, pair.b) if t in SIXTEEN_BIT and t != requested[0]), None)
    if stray is None:
        return verdict
    return verdict._replace(
        summary=f"{verdict.summary}; {stray} although the run asked for {requested[0]} "
        f"({requested[1]}): part of the stack ignored it"
    )


def analyze(evidence: Evidence) -> list[Finding]:
    """One finding naming where the stray floating-point dtype came from."""
    pair = _pair(evidence)
    if pair is None:
        return []
    lines = [
        _line(pair.a_role, pair.a, pair.said.where, "dtype from the error"),
        _line(pair.b_role, pair.b, pair.said.where, "dtype from the error"),
    ]
    if "Double" in (pair.a, pair.b):
        verdict = _float64(pair, evidence, lines)
    else:
        verdict = _sixteen_bit(pair, evidence, lines)
    return [
        Finding(
            id=verdict.finding_id,
            title=verdict.title,
            category="crash",
            summary=verdict.summary,
            evidence=(pair.said.ref,),
            values={"dtype_a": pair.a, "dtype_b": pair.b},
            arithmetic=Arithmetic(
                title="Where the stray dtype came from", lines=tuple(lines), result=verdict.summary
            ),
        )
    ]
