"""Shape-mismatch arithmetic: which operand is which, and where the width came from.

`mat1 and mat2 shapes cannot be multiplied (64x5408 and 6272x128)` prints the
input (rows x features arriving) and a Linear's transposed weight (in_features x
out_features). The arriving width, factored against the channel count of the
printed conv layers (5408 = 32·13·13), says which feature map reached the layer;
the printed conv/pool stack says which input size gives it. `The size of tensor
a (X) must match the size of tensor b (Y)` is set against the sizes the
evidence states (positions, sequence length, batch).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from trainwreck.analyzers.conv_chain import Chain, input_side, printed_chain
from trainwreck.analyzers.said import Said, first_match, statements
from trainwreck.analyzers.sizes import Size, sizes
from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding

FINDING_IDS: tuple[str, ...] = (
    "shape.operand_transposed",
    "shape.linear_in_features",
    "shape.input_resolution",
    "shape.broadcast_mismatch",
)
# A flattened feature map carries at least this many channels: the narrowest conv stages
# of the common backbones (ResNet's 64, VGG's 64, small CNNs' 16-32) are no narrower, and
# a smaller common factor of two widths is a coincidence of numbers, not a channel count.
MIN_CHANNELS = 16
# Words that put a flattened width in a vision model: two hidden sizes of a language model
# (4096 against 1024) also factor as channels over square maps, but are none.
IMAGE_WORDS = ("Conv", "conv", "image", "Image", "resnet", "ResNet", "vgg", "VGG", "pixel", "CNN")

_MATMUL = re.compile(
    r"(?:mat1 and mat2|self and mat2) shapes cannot be multiplied "
    r"\((?P<rows>\d+)x(?P<width>\d+) and (?P<inputs>\d+)x(?P<outputs>\d+)\)"
    r"|size mismatch, m1: \[(?P<rows_old>\d+) x (?P<width_old>\d+)\], "
    r"m2: \[(?P<inputs_old>\d+) x (?P<outputs_old>\d+)\]"
)
_BROADCAST = re.compile(
    r"size of tensor a \((?P<a>\d+)\) must match the size of tensor b \((?P<b>\d+)\) "
    r"at non-singleton dimension (?P<dim>\d+)"
)
# The printed model: the conv/pool stack and the Linear after the Flatten.
KEEP: tuple[str, ...] = (r"\b(?:Conv|MaxPool|AvgPool)2d\(|\bFlatten\(|\bLinear\(in_features=",)
_CHAIN = "floor((n + 2p - d(k-1) - 1)/s) + 1 per printed layer"
_NAMED = ("hidden", "positions", "seq_len", "batch", "vocab", "classes", "heads")


def line(
    label: str, value: int | str, source: str, formula: str = "from the error"
) -> ArithmeticLine:
    """One line of shape arithmetic, with where its value came from."""
    return ArithmeticLine(label=label, formula=formula, value=value, source=source)


def _square_side(width: int, channels: int) -> int | None:
    """s when width = channels·s·s."""
    if width % channels:
        return None
    side = math.isqrt(width // channels)
    return side if side * side * channels == width else None


def _named(value: int, found: list[Size]) -> list[Size]:
    return [size for size in found if size.quantity in _NAMED and size.value == value]


def _side_ratio(width: int, wanted: int) -> Fraction | None:
    """How many times wider per side the flattened map arriving is than the one the layer was
    sized for, when the widths are one channel count over two square maps: their ratio is
    then a square, (32/7)² for 524288 = 512·32·32 against 25088 = 512·7·7. The channel count
    itself is not determined (512·32·32 = 2048·16·16), the ratio is."""
    if width == wanted or math.isqrt(width * wanted) ** 2 != width * wanted:
        return None
    ratio = Fraction(math.isqrt(width * wanted), wanted)
    # The expected map's side is a multiple of the ratio's denominator and at least 2; its
    # channels (in_features over the side squared) must still be a plausible channel count.
    side = ratio.denominator if ratio.denominator >= 2 else 2
    if wanted % side**2 or wanted // side**2 < MIN_CHANNELS:
        return None
    return ratio


def _about_images(evidence: Evidence) -> bool:
    """Whether the run shows convolutions or images: only then is a width a flattened map."""
    return next(statements(evidence, *IMAGE_WORDS), None) is not None


def _resolution(width: int, wanted: int, said: Said, evidence: Evidence) -> Finding | None:
    """The input's side against the side the layer was sized for, when the widths say it."""
    ratio = _side_ratio(width, wanted)
    if ratio is None:
        return None
    shown = f"{ratio.numerator}/{ratio.denominator}" if ratio.denominator > 1 else str(ratio)
    title = (
        f"{width} / {wanted} = ({shown})²: the same channels over a square feature map {shown} "
        f"= {float(ratio):.3g} times the side the layer was sized for, so the input is "
        f"{float(ratio):.3g} times the side the model was built for"
    )
    lines = [
        line("width ratio", f"({shown})²", "computed", f"{width} / {wanted}"),
        line("side ratio", f"{float(ratio):.3g}", "computed", "√(width ratio)"),
    ]
    values: dict[str, int] = {}
    stated = input_side(evidence)
    if stated is not None and (stated[0] / ratio).denominator == 1:
        built = int(stated[0] / ratio)
        title += f": {stated[0]} px images into a model built for {built} px"
        lines += [
            line("input side", stated[0], stated[1], "stated"),
            line("side the model was built for", built, "computed", f"{stated[0]} / {shown}"),
        ]
        values["built_for"] = built
    return shape_finding("shape.input_resolution", (title, title), said, lines, values)


def _conv_story(
    chain: Chain, width: int, wanted: int, evidence: Evidence
) -> tuple[str, list[ArithmeticLine]]:
    """The feature map behind each width, and the input sizes the printed layers need for it."""
    conv = chain.channels
    if conv is None or conv.channels is None:
        return "", []
    channels = conv.channels
    side, needed = _square_side(width, channels), _square_side(wanted, channels)
    if side is None or needed is None:
        return "", []
    story = (
        f": {width} = {channels}·{side}·{side} but the layer was sized for "
        f"{channels}·{needed}·{needed}"
    )
    where = f"{conv.where} ({conv.text})"
    lines = [
        line("channels of the last conv", channels, where, "printed model"),
        line("feature map arriving", f"{side}x{side}", "computed", f"{width} / {channels}, √"),
        line(
            "feature map the layer expects",
            f"{needed}x{needed}",
            "computed",
            f"{wanted} / {channels}, √",
        ),
    ]
    more, more_lines = _through_chain(chain, side, needed, input_side(evidence))
    return story + more, lines + more_lines


def _through_chain(
    chain: Chain, side: int, needed: int, stated: tuple[int, str] | None
) -> tuple[str, list[ArithmeticLine]]:
    """The stated input through the printed layers, else the inputs that give each map."""
    spans = {
        label: chain.inputs_for(target)
        for label, target in (("arriving", side), ("expected", needed))
    }
    lines = [
        line(f"input sides giving the {label} map", f"{span[0]}-{span[1]}", "computed", _CHAIN)
        for label, span in spans.items()
        if span is not None
    ]
    if stated is not None and chain.side(stated[0]) == side:
        lines[:0] = [
            line("input side", stated[0], stated[1], "stated"),
            line("side after the printed layers", side, "computed", _CHAIN),
        ]
        return (
            f"; the printed layers turn the {stated[0]}x{stated[0]} input into {side}x{side}",
            lines,
        )
    arriving, expected = spans["arriving"], spans["expected"]
    if arriving is None or expected is None:
        return "", lines
    return (
        f"; the printed layers give {side}x{side} from a {arriving[0]}-{arriving[1]} px "
        f"input and {needed}x{needed} from {expected[0]}-{expected[1]} px"
    ), lines


def _operands(found: re.Match[str]) -> tuple[int, int, int, int]:
    """Rows, width arriving, in_features and out_features, from either wording."""
    rows, width, inputs, outputs = (
        int(found[name] or found[f"{name}_old"]) for name in ("rows", "width", "inputs", "outputs")
    )
    return rows, width, inputs, outputs


def _matmul(found: re.Match[str], said: Said, evidence: Evidence) -> Finding:
    rows, width, inputs, outputs = _operands(found)
    lines = [
        line("input rows (batch x positions)", rows, said.where),
        line("input width (features arriving)", width, said.where),
        line("layer in_features (weight rows, transposed)", inputs, said.where),
        line("layer out_features", outputs, said.where),
    ]
    if rows == inputs and width != inputs:
        finding_id = "shape.operand_transposed"
        title = summary = (
            f"the input is transposed: its first dimension {rows} equals in_features {inputs}"
        )
    elif width == outputs and width != inputs:
        finding_id = "shape.operand_transposed"
        title = summary = (
            f"the weight is not transposed: mat2 is {inputs}x{outputs}, its {outputs} columns "
            "match the input width"
        )
    else:
        finding_id = "shape.linear_in_features"
        title = (
            f"the weight expects {inputs} input features (in_features), the input brings {width}"
        )
        chain = printed_chain(evidence)
        story, chain_lines = _conv_story(chain, width, inputs, evidence) if chain else ("", [])
        summary = title + story
        lines += chain_lines
    stated = sizes(evidence)
    for value, side in ((width, "input width"), (inputs, "in_features")):
        for size in _named(value, stated):
            lines.append(
                line(f"{side} equals {size.quantity}", size.value, size.source, "stated size")
            )
    values = {"rows": rows, "width": width, "in_features": inputs, "out_features": outputs}
    return shape_finding(finding_id, (title, summary), said, lines, values)


def relation(a: int, b: int) -> str:
    """How two printed sizes relate: off by one, a whole multiple, or a plain difference."""
    low, high = sorted((a, b))
    if high - low == 1:
        return "they differ by one"
    if low and high % low == 0:
        return f"one is {high // low} times the other"
    return f"they differ by {high - low}"


def _broadcast(found: re.Match[str], said: Said, evidence: Evidence) -> Finding:
    a, b, dim = int(found["a"]), int(found["b"]), int(found["dim"])
    lines = [
        line("tensor a", a, said.where),
        line("tensor b", b, said.where),
        line("dimension", dim, said.where),
    ]
    title = f"tensor a has {a} where tensor b has {b} at dimension {dim}"
    summary = f"{title}: {relation(a, b)}"
    stated = sizes(evidence)
    named: list[str] = []
    for name, value in (("a", a), ("b", b)):
        for size in _named(value, stated):
            lines.append(line(f"{name} equals {size.quantity}", value, size.source, "stated size"))
            named.append(f"{name} = {size.quantity} {value}")
    if named:
        summary += f" ({'; '.join(named)})"
    values = {"a": a, "b": b, "dim": dim}
    return shape_finding("shape.broadcast_mismatch", (title, summary), said, lines, values)


def shape_finding(
    finding_id: str,
    words: tuple[str, str],
    said: Said,
    lines: list[ArithmeticLine],
    values: dict[str, int],
) -> Finding:
    title, summary = words
    return Finding(
        id=finding_id,
        title=title,
        category="crash",
        summary=summary,
        evidence=(said.ref,),
        values=dict(values),
        arithmetic=Arithmetic(title="Shapes of the operands", lines=tuple(lines), result=summary),
    )


def analyze(evidence: Evidence) -> list[Finding]:
    """A finding for the first matmul shape error (and the input resolution it implies) and the
    first broadcast mismatch."""
    findings = []
    if (
        matmul := first_match(evidence, _MATMUL, "cannot be multiplied", "size mismatch, m1")
    ) is not None:
        findings.append(finding := _matmul(*matmul, evidence))
        _, width, wanted, _ = _operands(matmul[0])
        # A printed conv stack already says which map and input give each width (_conv_story).
        if (
            finding.id == "shape.linear_in_features"
            and printed_chain(evidence) is None
            and _about_images(evidence)
        ):
            findings += filter(None, [_resolution(width, wanted, matmul[1], evidence)])
    if (broadcast := first_match(evidence, _BROADCAST, "must match the size")) is not None:
        findings.append(_broadcast(*broadcast, evidence))
    return findings
