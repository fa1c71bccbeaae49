"""The size of a failed allocation, factored against the sizes the run states.

`Tried to allocate 23.84 GiB` is a number of bytes; a few products of the run's
sizes explain most large requests: a full n x n matrix (n²·k: pairwise distances,
an attention mask over n positions), attention scores (b·h·s²·k), full-vocabulary
logits (b·s·V·k), an embedding table (V·h·k) or the weights themselves
(params·k, per rank when sharded), with k the bytes of the element type. A
product that equals the request to the precision it was printed with names the
tensor, and its k names the dtype (4 bytes where 2 were meant is an fp32 upcast).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from trainwreck.analyzers.said import Said, first_match
from trainwreck.analyzers.sizes import LOGGED_COUNT, Size, model_config, of, sizes
from trainwreck.analyzers.units import to_bytes
from trainwreck.errors import TrainwreckError
from trainwreck.memory.architectures import shape_of
from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding

FINDING_IDS: tuple[str, ...] = (
    "alloc.full_matrix",
    "alloc.attention_scores",
    "alloc.logits",
    "alloc.embedding",
    "alloc.weights",
)

# CUDA/MPS print a rounded size, the CPU allocator and XLA print exact bytes.
_REQUEST = re.compile(
    r"(?i)(?:tried|trying) to allocate (?P<number>\d+(?:\.(?P<decimals>\d+))?)\s*"
    r"(?P<unit>[KMGT]i?B|bytes|B)\b"
)
# Sizes a run prints that a request is factored against (sizes.py reads them).
KEEP: tuple[str, ...] = (
    r"(?i)\b(?:num|n)_(?:samples|points|examples)\b\W{0,3}\d|\bbatch[_ ]size\b\W{0,3}\d",
    LOGGED_COUNT,
)
ELEMENT_BYTES = {2: "fp16/bf16", 4: "fp32", 8: "fp64"}
_SQUARE = ("count", "seq_len", "positions")
_LENGTH = ("seq_len", "positions")


Factors = tuple[tuple[str, Size], ...]


@dataclass(frozen=True)
class Product:
    """One product of stated sizes that a tensor of the run would have."""

    finding_id: str
    what: str
    formula: str
    factors: Factors  # (symbol, size) in formula order
    element: int

    @property
    def n_bytes(self) -> int:
        total = self.element
        for symbol, size in self.factors:
            total = total // size.value if symbol == "/world" else total * size.value
        return total


def failed_request(evidence: Evidence) -> tuple[int, int, Said] | None:
    """(bytes requested, tolerance from the printed precision, where) of the first request."""
    found = first_match(evidence, _REQUEST, "allocate")
    if found is None:
        return None
    match, said = found
    n_bytes = to_bytes(f"{match['number']} {match['unit']}")
    if n_bytes is None:
        return None
    unit_bytes = to_bytes(f"1 {match['unit']}") or 1
    half_digit = unit_bytes / 10 ** len(match["decimals"] or "") / 2
    return n_bytes, int(half_digit), said


def _params(evidence: Evidence) -> Size | None:
    found = model_config(evidence)
    if found is None:
        return None

    try:
        params = shape_of(found[0]).params
    except TrainwreckError:
        return None
    return Size("params", params, f"{found[1]}: parameters counted from the architecture")


def _products(evidence: Evidence) -> Iterator[Product]:
    found = sizes(evidence)
    batches, heads, vocab = of(found, "batch"), of(found, "heads"), of(found, "vocab")
    params = _params(evidence)
    for k in ELEMENT_BYTES:
        for n in of(found, *_SQUARE):
            yield Product(
                "alloc.full_matrix", "a full n x n matrix", "n²·k", (("n", n), ("n", n)), k
            )
        # every query against every passage: two different stated counts
        for m, n in combinations(of(found, "count"), 2):
            pairs: Factors = (("m", m), ("n", n))
            yield Product(
                "alloc.full_matrix", "a full m x n matrix of all pairs", "m·n·k", pairs, k
            )
        for s in of(found, *_LENGTH):
            for b in batches:
                for h in heads:
                    factors: Factors = (("b", b), ("h", h), ("s", s), ("s", s))
                    yield Product(
                        "alloc.attention_scores", "attention scores", "b·h·s²·k", factors, k
                    )
                for v in vocab:
                    factors = (("b", b), ("s", s), ("V", v))
                    yield Product("alloc.logits", "full-vocabulary logits", "b·s·V·k", factors, k)
        for v in vocab:
            for hidden in of(found, "hidden"):
                factors = (("V", v), ("h", hidden))
                yield Product("alloc.embedding", "an embedding table", "V·h·k", factors, k)
        if params is not None:
            yield Product(
                "alloc.weights", "the model's weights", "params·k", (("params", params),), k
            )
            for world in of(found, "world"):
                factors = (("params", params), ("/world", world))
                yield Product(
                    "alloc.weights",
                    "one rank's shard of the weights",
                    "params·k / world",
                    factors,
                    k,
                )


def _arithmetic(product: Product, request: tuple[int, int, Said], summary: str) -> Arithmetic:
    n_bytes, _, said = request
    lines = [
        ArithmeticLine(
            label="requested",
            formula="from the error",
            value=n_bytes,
            unit="bytes",
            source=said.where,
        )
    ]
    seen: set[str] = set()
    for symbol, size in product.factors:
        if symbol not in seen:
            seen.add(symbol)
            name = symbol.lstrip("/")
            lines.append(
                ArithmeticLine(
                    label=f"{name} ({size.quantity})",
                    formula="stated size",
                    value=size.value,
                    source=size.source,
                )
            )
    lines += [
        ArithmeticLine(
            label="k",
            formula=f"bytes per {ELEMENT_BYTES[product.element]} element",
            value=product.element,
            unit="bytes",
            source="dtype width",
        ),
        ArithmeticLine(
            label=product.what,
            formula=product.formula,
            value=product.n_bytes,
            unit="bytes",
            source="computed",
        ),
    ]
    return Arithmetic(title="What the failed allocation holds", lines=tuple(lines), result=summary)


def _spelled(product: Product) -> str:
    parts = [str(size.value) for symbol, size in product.factors if symbol != "/world"]
    text = " x ".join(parts) + f" x {product.element} B"
    worlds = [size.value for symbol, size in product.factors if symbol == "/world"]
    return text + (f" / {worlds[0]} ranks" if worlds else "")


def analyze(evidence: Evidence) -> list[Finding]:
    """A finding for each kind of tensor whose size equals the failed request."""
    request = failed_request(evidence)
    if request is None:
        return []
    n_bytes, tolerance, said = request
    findings: dict[str, Finding] = {}
    for product in _products(evidence):
        if product.finding_id in findings or abs(product.n_bytes - n_bytes) > tolerance:
            continue
        dtype = ELEMENT_BYTES[product.element]
        summary = (
            f"the {n_bytes:,}-byte request is {product.what} in {dtype}: "
            f"{_spelled(product)} = {product.n_bytes:,} bytes ({product.formula})"
        )
        findings[product.finding_id] = Finding(
            id=product.finding_id,
            title=f"the failed allocation is {product.what} in {dtype} ({_spelled(product)})",
            category="oom",
            summary=summary,
            evidence=(said.ref,),
            values={
                "requested_bytes": n_bytes,
                "element_bytes": product.element,
                "formula": product.formula,
            },
            arithmetic=_arithmetic(product, request, summary),
        )
    return list(findings.values())
