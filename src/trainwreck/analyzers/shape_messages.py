"""The numbers in three common shape errors, read the way a maintainer reads them.

- `shape '[32, 3, 224, 224]' is invalid for input of size 1204224`: the shape's
  product against the tensor's size. When the size is a whole number of the
  shape's rows (1204224 = 8 · 3·224·224), the tensor holds 8 rows where the code
  hard-coded 32: a smaller (usually the last) batch.
- `Given groups=1, weight of size [64, 3, 3, 3], expected input[16, 224, 224, 3]
  to have 3 channels, but got 224 channels instead`: an input whose last
  dimension is the expected channel count is channels-last (N, H, W, C) data; 1
  channel for 3 is grayscale into an RGB model, 4 for 3 an alpha channel.
- `Expected input batch_size (64) to match target batch_size (32)`: a whole
  ratio means the outputs carry that many rows per target: a view or flatten
  that folded features into the batch dimension, or per-position outputs
  against per-sample targets.
"""

from __future__ import annotations

import math
import re

from trainwreck.analyzers.said import Said, first_match
from trainwreck.analyzers.shapes import line, relation, shape_finding
from trainwreck.model import Evidence, Finding

FINDING_IDS: tuple[str, ...] = (
    "shape.view_size_invalid",
    "shape.conv_input_channels",
    "shape.loss_batch_mismatch",
)

_VIEW = re.compile(
    r"shape '\[(?P<dims>-?\d+(?:, -?\d+)*)\]' is invalid for input of size (?P<size>\d+)"
)
_CONV = re.compile(
    r"weight of size \[(?P<weight>\d+(?:, \d+)*)\], expected input\[(?P<input>\d+(?:, \d+)*)\] "
    r"to have (?P<want>\d+) channels, but got (?P<got>\d+) channels instead"
)
_BATCH = re.compile(
    r"Expected input batch_size \((?P<input>\d+)\) to match target batch_size \((?P<target>\d+)\)"
)
_GRAYSCALE, _RGB, _RGBA = 1, 3, 4
_INFERRED = -1


def _numbers(text: str) -> list[int]:
    return [int(part) for part in text.split(", ")]


def _view(found: re.Match[str], said: Said) -> Finding:
    dims, size = _numbers(found["dims"]), int(found["size"])
    known = math.prod(d for d in dims if d != _INFERRED)
    lines = [
        line("shape asked for", f"[{found['dims']}]", said.where),
        line("elements in the tensor", size, said.where),
        line("product of the given dimensions", known, "computed", "product of the shape"),
    ]
    values: dict[str, int] = {"size": size, "product": known}
    if _INFERRED in dims:
        title = (
            f"the tensor's {size} elements are not a multiple of {known}, the product of the "
            "shape's other dimensions"
        )
        story = f"{title}: {size} / {known} = {size / known:.2f}"
    else:
        row = known // dims[0] if dims[0] else 0
        title = f"the shape needs {known} elements, the tensor has {size}: {relation(known, size)}"
        story = title
        if row and size % row == 0 and size // row != dims[0]:
            rows = size // row
            values["rows"] = rows
            lines.append(line("rows the tensor holds", rows, "computed", f"{size} / {row}"))
            story = (
                f"{title}; the tensor holds {rows} rows of {row} elements where the shape "
                f"hard-codes {dims[0]}"
            )
            title = f"the tensor holds {rows} rows where the view hard-codes {dims[0]}"
    return shape_finding("shape.view_size_invalid", (title, story), said, lines, values)


def _layout(dims: list[int], want: int, got: int) -> str:
    """What the printed input dimensions say about the data's layout or colour channels."""
    if len(dims) >= _RGBA and dims[-1] == want and got != want:
        return f"channels-last: the last dimension is {want}, so the data is (N, H, W, C)"
    if (got, want) == (_GRAYSCALE, _RGB):
        return "one-channel (grayscale) images into a model whose first layer takes 3 (RGB)"
    if (got, want) == (_RGB, _GRAYSCALE):
        return "three-channel (RGB) images into a model whose first layer takes 1"
    if (got, want) == (_RGBA, _RGB):
        return "four-channel images (RGBA, an alpha channel) into a model that takes 3"
    return ""


def _conv(found: re.Match[str], said: Said) -> Finding:
    dims, want, got = _numbers(found["input"]), int(found["want"]), int(found["got"])
    lines = [
        line("input", f"[{found['input']}]", said.where),
        line("channels the layer takes", want, said.where),
        line("channels arriving (input dim 1)", got, said.where),
    ]
    layout = _layout(dims, want, got)
    title = f"the layer takes {want} channels, the input's dimension 1 is {got}"
    story = f"{title}: {layout}" if layout else title
    values = {"want": want, "got": got, "last_dim": dims[-1]}
    return shape_finding("shape.conv_input_channels", (title, story), said, lines, values)


def _batch(found: re.Match[str], said: Said) -> Finding:
    outputs, targets = int(found["input"]), int(found["target"])
    lines = [
        line("rows of the model output", outputs, said.where),
        line("rows of the target", targets, said.where),
    ]
    title = (
        f"the loss got {outputs} output rows for {targets} targets: {relation(outputs, targets)}"
    )
    values = {"outputs": outputs, "targets": targets}
    if targets and outputs % targets == 0 and outputs != targets:
        per = outputs // targets
        values["per_target"] = per
        lines.append(line("output rows per target", per, "computed", f"{outputs} / {targets}"))
        title = (
            f"the loss got {per} output rows per target ({outputs} for {targets}): a view or "
            "flatten folded features or positions into the batch dimension"
        )
    return shape_finding("shape.loss_batch_mismatch", (title, title), said, lines, values)


def analyze(evidence: Evidence) -> list[Finding]:
    """A finding for the first of each message."""
    findings = []
    if (view := first_match(evidence, _VIEW, "is invalid for input of size")) is not None:
        findings.append(_view(*view))
    if (conv := first_match(evidence, _CONV, "channels instead")) is not None:
        findings.append(_conv(*conv))
    if (batch := first_match(evidence, _BATCH, "to match target batch_size")) is not None:
        findings.append(_batch(*batch))
    return findings
