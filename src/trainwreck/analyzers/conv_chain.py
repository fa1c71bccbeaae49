"""The spatial size a printed stack of conv and pool layers produces.

PyTorch prints a model as its modules with their arguments
(`Conv2d(1, 32, kernel_size=(3, 3), stride=(1, 1))`, `MaxPool2d(kernel_size=2,
stride=2, padding=0, ...)`). Each maps a side of n pixels to
floor((n + 2p - d(k - 1) - 1) / s) + 1 (the output-shape formula in the Conv2d
and MaxPool2d docs; with d = 1 it is floor((n + 2p - k) / s) + 1). Chained, the
layers say which feature map reaches the first Linear after a Flatten, and which
input size gives the map that Linear was built for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from trainwreck.analyzers.said import statements
from trainwreck.model import Evidence

MAX_SIDE = 4096  # largest input side searched when the input size is not stated
_LAYER = re.compile(r"\b(?P<kind>Conv|MaxPool|AvgPool)2d\((?P<args>(?:[^()]|\([^()]*\))*)\)")
_CONV_CHANNELS = re.compile(r"^\s*(?P<inputs>\d+), (?P<outputs>\d+)")
_ARG = re.compile(
    r"(?P<name>kernel_size|stride|padding|dilation)=(?:\((?P<pair>\d+), \d+\)|(?P<one>\d+))"
)
_INPUT = re.compile(r"torch\.Size\(\[\d+, (?P<channels>\d+), (?P<side>\d+), (?P=side)\]\)")
_INPUT_WORDS = re.compile(
    r"(?i)\b(?P<side>\d+)\s*[x\u00d7]\s*(?P=side)\b(?=[^.]{0,30}\b(?:input|image|pixel|px))"
)
# "my images, which are 512x512": the word before the size.
_WORDS_THEN_INPUT = re.compile(
    r"(?i)\b(?:input|image|pixel)s?\b[^.\d]{0,30}?\b(?P<side>\d+)\s*[x\u00d7]\s*(?P=side)\b"
)


@dataclass(frozen=True)
class Layer:
    kind: str  # Conv, MaxPool or AvgPool
    kernel: int
    stride: int
    padding: int
    dilation: int
    channels: int | None  # a conv's output channels
    text: str
    where: str

    def side(self, n: int) -> int:
        """The output side for an input side of n (ceil_mode off)."""
        return (n + 2 * self.padding - self.dilation * (self.kernel - 1) - 1) // self.stride + 1


@dataclass(frozen=True)
class Chain:
    layers: tuple[Layer, ...]

    @property
    def channels(self) -> Layer | None:
        """The last conv: its output channels are the feature map's depth."""
        return next((layer for layer in reversed(self.layers) if layer.channels), None)

    def side(self, n: int) -> int:
        for layer in self.layers:
            n = layer.side(n)
        return n

    def inputs_for(self, side: int) -> tuple[int, int] | None:
        """The smallest and largest input side that this chain maps to `side`."""
        fits = [n for n in range(1, MAX_SIDE + 1) if self.side(n) == side]
        return (fits[0], fits[-1]) if fits else None


def _layer(kind: str, args: str, text: str, where: str) -> Layer:
    values = {found["name"]: int(found["pair"] or found["one"]) for found in _ARG.finditer(args)}
    kernel = values.get("kernel_size", 1)
    default_stride = kernel if kind != "Conv" else 1  # pools stride by their kernel
    channels = _CONV_CHANNELS.match(args) if kind == "Conv" else None
    return Layer(
        kind=kind,
        kernel=kernel,
        stride=values.get("stride", default_stride),
        padding=values.get("padding", 0),
        dilation=values.get("dilation", 1),
        channels=int(channels["outputs"]) if channels else None,
        text=text.strip(),
        where=where,
    )


def printed_chain(evidence: Evidence) -> Chain | None:
    """The conv and pool layers printed before the first Flatten, in print order."""
    layers: list[Layer] = []
    for said in statements(evidence, "2d(", "Flatten("):
        if "Flatten(" in said.text and layers:
            break
        for found in _LAYER.finditer(said.text):
            layers.append(_layer(found["kind"], found["args"], found.group(0), said.where))
    return Chain(tuple(layers)) if layers else None


def input_side(evidence: Evidence) -> tuple[int, str] | None:
    """A square input's side: a printed `torch.Size([N, C, H, W])`, else the user's words."""
    for said in statements(evidence, "torch.Size", "input", "image", "pixel", "px"):
        found = (
            _INPUT.search(said.text)
            or _INPUT_WORDS.search(said.text)
            or _WORDS_THEN_INPUT.search(said.text)
        )
        if found is not None:
            return int(found["side"]), f"{said.where} ({found.group(0)!r})"
    return None
