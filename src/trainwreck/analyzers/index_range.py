"""An out-of-range index against the size of the table it indexed.

A loss kernel checks `0 <= target < n_classes` and an embedding lookup
`0 <= id < num_embeddings`; the error names the bound, and sometimes the
offending value (`Target 10 is out of bounds`). Set against the class count or
vocabulary the evidence states, the value names the cause: a target equal to the
class count means labels numbered from 1; a negative target other than the
loss's `ignore_index` is a padding value the loss was not told to skip; a token
id at or past the vocabulary is a token added without growing the embeddings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from trainwreck.analyzers.said import Said, statements
from trainwreck.analyzers.sizes import Size, of, sizes
from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding

FINDING_IDS: tuple[str, ...] = (
    "index.negative_label",
    "index.labels_one_based",
    "index.labels_exceed_classes",
    "index.token_beyond_vocab",
    "index.out_of_range",
)

# CrossEntropyLoss / NLLLoss skip this target by default (torch.nn.CrossEntropyLoss docs).
DEFAULT_IGNORE_INDEX = -100
_IGNORE_INDEX = re.compile(r"\bignore_index\s*[:=]\s*(-?\d+)")


@dataclass(frozen=True)
class Bound:
    """What an index error says: which table, the bound's text, the value if printed."""

    table: str  # "labels" (a loss's classes) or "tokens" (an embedding's rows)
    bound: str
    value: int | None
    said: Said


# (table, bound as the kernel states it, regex; group "value" when the message prints it)
_MESSAGES: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    ("labels", "0 <= target < n_classes", re.compile(r"Target (?P<value>-?\d+) is out of bounds")),
    (
        "tokens",
        "0 <= token id < vocabulary size",
        re.compile(r"(?i)\btoken[ _]?id (?P<value>\d+) (?:is )?out of (?:range|vocab)"),
    ),
    (
        "labels",
        "t >= 0 && t < n_classes",
        re.compile(r"(?:\bt|cur_target) >= 0 && \w+ < n_classes"),
    ),
    ("tokens", "srcIndex < srcSelectDimSize", re.compile(r"srcIndex < srcSelectDimSize")),
    ("tokens", "index out of range in self", re.compile(r"index out of range in self")),
)
# Every message above holds one of these.
_WORDS = ("out of", "n_classes", "srcIndex")
KEEP: tuple[str, ...] = (
    r"(?i)\b(?:num_classes|n_classes|num_labels|vocab(?:ulary)?[_ ]size|ignore_index)\b\W{0,3}-?\d",
    r"\blen\(tokenizer\)\W{0,3}\d|\bEmbedding\(\d+, \d+",
    r"(?i)\btoken[ _]?id \d+ (?:is )?out of",
)


def _bounds(evidence: Evidence) -> list[Bound]:
    """Each kind of index error the evidence states; one with a printed value leads."""
    found: dict[tuple[str, int | None], Bound] = {}
    for said in statements(evidence, *_WORDS):
        for table, bound, regex in _MESSAGES:
            if (match := regex.search(said.text)) is not None:
                value = int(match["value"]) if "value" in regex.groupindex else None
                found.setdefault((table, value), Bound(table, bound, value, said))
    return sorted(found.values(), key=lambda b: b.value is None)


def _ignore_index(evidence: Evidence) -> tuple[int, str]:
    for said in statements(evidence, "ignore_index"):
        if (match := _IGNORE_INDEX.search(said.text)) is not None:
            return int(match.group(1)), said.where
    return DEFAULT_IGNORE_INDEX, "[assumed] the loss default (CrossEntropyLoss/NLLLoss)"


def _table_size(evidence: Evidence, table: str) -> Size | None:
    """The class count for labels; the vocabulary (else the largest embedding) for tokens."""
    found = sizes(evidence)
    if table == "labels":
        return next(iter(of(found, "classes")), None)
    vocab = of(found, "vocab")
    if vocab:
        return vocab[0]
    return max(of(found, "embedding"), key=lambda size: size.value, default=None)


def _cause(bound: Bound, size: Size | None, ignore: int) -> tuple[str, str] | None:
    """(finding id, summary) for what the value and the table size say together."""
    value = bound.value
    if value is None:
        return None
    if bound.table == "labels" and value < 0:
        if value == ignore:
            return None
        return (
            "index.negative_label",
            f"padding value not ignored: target {value} is negative and not the loss's "
            f"ignore_index {ignore}",
        )
    if size is None or value < size.value:
        return None
    if bound.table == "labels":
        if value == size.value:
            return (
                "index.labels_one_based",
                f"labels are 1-based: target {value} == number of classes {size.value} "
                "(or the class count leaves one class out)",
            )
        return (
            "index.labels_exceed_classes",
            f"labels exceed the head: target {value} > number of classes {size.value}",
        )
    beyond = value - size.value
    past = "the first id past" if beyond == 0 else f"{beyond} id{'s' * (beyond > 1)} past"
    return (
        "index.token_beyond_vocab",
        f"tokens added without resizing embeddings: token id {value} >= vocabulary size "
        f"{size.value} ({past} the embedding table)",
    )


def _arithmetic(
    bound: Bound, size: Size | None, ignore: tuple[int, str], result: str
) -> Arithmetic:
    lines = [
        ArithmeticLine(
            label="bound the kernel checks",
            formula="from the error",
            value=bound.bound,
            source=bound.said.where,
        ),
        ArithmeticLine(
            label="offending index",
            formula="from the error" if bound.value is not None else "not printed",
            value=bound.value if bound.value is not None else "-",
            source=bound.said.where if bound.value is not None else "-",
        ),
    ]
    table = "number of classes" if bound.table == "labels" else "vocabulary size"
    lines.append(
        ArithmeticLine(
            label=table,
            formula="stated size" if size else "not in the evidence",
            value=size.value if size else "-",
            source=size.source if size else "-",
        )
    )
    if bound.table == "labels" and bound.value is not None and bound.value < 0:
        lines.append(
            ArithmeticLine(
                label="ignore_index", formula="skipped target", value=ignore[0], source=ignore[1]
            )
        )
    return Arithmetic(title="Index against the table it indexes", lines=tuple(lines), result=result)


def _unexplained(bound: Bound, size: Size | None) -> str:
    """What can be said when the numbers do not name a cause, and which number is missing."""
    what = "a class label" if bound.table == "labels" else "a token id"
    if bound.value is None:
        return f"{what} is out of range ({bound.bound}); the error does not print its value"
    if size is None:
        return f"{what} {bound.value} is out of range ({bound.bound}); no table size is stated"
    return (
        f"{what} {bound.value} is out of range ({bound.bound}) although the stated size is "
        f"{size.value}: the table the kernel indexed is smaller than that"
    )


def analyze(evidence: Evidence) -> list[Finding]:
    """One finding for the first index error: its cause when the numbers name one."""
    bounds = _bounds(evidence)
    if not bounds:
        return []
    bound = bounds[0]
    size = _table_size(evidence, bound.table)
    ignore = _ignore_index(evidence)
    cause = _cause(bound, size, ignore[0])
    finding_id, summary = cause or ("index.out_of_range", _unexplained(bound, size))
    values = {
        "table": bound.table,
        "index": bound.value,
        "table_size": size.value if size else None,
    }
    return [
        Finding(
            id=finding_id,
            title=summary,
            category="crash",
            summary=summary,
            evidence=(bound.said.ref,),
            values=values,
            arithmetic=_arithmetic(bound, size, ignore, summary),
        )
    ]
