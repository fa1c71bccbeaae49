"""Versions the run used, and the version changes the failure followed.

"Works with transformers 4.44, fails with 4.45" names the regression window
directly, and is the strongest clue a user gives; it was ignored before. Only
versions of packages this field uses are read, so "step 2.5" or "Python 3"
in prose does not become a version change. Two environment listings (the working
one first) show the same clue for every ML package whose version differs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from trainwreck.evidence.setup import ML_PACKAGES
from trainwreck.model import EnvListing, Evidence, VersionChange

_PACKAGES = (
    r"(?P<pkg>torch|pytorch|transformers|peft|trl|accelerate|deepspeed|vllm|bitsandbytes|"
    r"flash[-_ ]?attn|flash[-_ ]attention|lightning|pytorch[-_ ]lightning|jaxlib|jax|numpy|"
    r"cuda|python|triton|xformers|tokenizers|datasets|nccl|unsloth|safetensors|torchvision|"
    # the stacks beyond torch's whose regressions users name (batch-35's TGI, llama-cpp-python,
    # Lightning, ONNX Runtime and CTranslate2 threads)
    r"torchaudio|tensorflow|keras|diffusers|sentence[-_ ]transformers|optimum|onnxruntime|"
    r"xgboost|lightgbm|catboost|scikit[-_ ]learn|sklearn|llama[-_]cpp[-_]python|sglang|"
    r"text[-_]generation[-_]inference|tgi|exllamav2|ctranslate2|ultralytics|timm|mlx[-_]lm|"
    r"mlx|paddlepaddle|faster[-_]whisper|ray|detectron2|mmcv|tensorrt[-_]llm|tensorrt)"
)
# "1.3.x", "2.1.*": a release series counts as its first numbers
_VERSION = r"v?(?P<ver>\d+(?:\.\d+)+(?:[.+\-]?(?:post|dev|rc|a|b|cu)\d*)*)(?:\.[x*])?"
_PKG_VERSION = rf"{_PACKAGES}(?:[ =:@]|==)*\s*{_VERSION}"
# Whole words only: "fine-tuning with deepspeed 0.14.0" says nothing about which side works.
# ("the CUDA 10.1 libraries load fine" says the libraries were found, not that the run worked)
_GOOD_WORDS = (
    r"(?<![\w-])(?<!loads )(?<!load )(?<!loaded )"
    r"(?:works?|worked|working|fine|ok|okay|good|no (?:issue|problem)s?|succeed\w*|"
    r"passes)(?![\w-])"
)
_BAD_WORDS = (
    r"(?<![\w-])(?:fails?|failed|failing|broken|breaks|broke|errors?|crash\w*|hangs?|nans?|"
    r"regress\w*|does ?n[o']t work|not work\w*|slower|wrong|ooms?|diverg\w*|stuck)(?![\w-])"
)
# (role, regex): role says which side of the change the named version is on.
_NEW = _VERSION.replace("ver", "new")
_LINK = r"[^.;\n]{0,60}?"
_TO = r"\b(?:with|on|in|using|after|since|under|for) (?:\w+[ =]*)?"
_CLUES: tuple[tuple[str, str], ...] = (
    (
        "transition",
        rf"{_GOOD_WORDS}{_LINK}{_TO}{_PKG_VERSION}{_LINK}{_BAD_WORDS}{_LINK}{_TO}{_NEW}",
    ),
    (
        "reversed",
        rf"{_BAD_WORDS}{_LINK}{_TO}{_PKG_VERSION}{_LINK}{_GOOD_WORDS}{_LINK}{_TO}{_NEW}",
    ),
    (
        "good",
        rf"{_GOOD_WORDS}[^.;\n]{{0,40}}?\b(?:with|on|in|using|under|for) {_PKG_VERSION}",
    ),
    ("good", rf"{_PKG_VERSION}[^.;\n]{{0,20}}?\b{_GOOD_WORDS}"),
    ("good", rf"downgrad\w*[^.;\n]{{0,20}}?\bto {_PKG_VERSION}"),
    ("good", rf"downgrad\w* {_PACKAGES}[^.;\n]{{0,10}}?\bto {_VERSION}"),
    (
        "bad",
        rf"{_BAD_WORDS}[^.;\n]{{0,40}}?"
        rf"\b(?:with|on|in|using|after|since|under|for) {_PKG_VERSION}",
    ),
    ("bad", rf"\bbut (?:with|on|in|using|under|for) {_PKG_VERSION}"),
    ("bad", rf"(?:upgrad|updat|bump|mov|switch)\w*[^.;\n]{{0,30}}?\bto {_PKG_VERSION}"),
    ("bad", rf"(?:upgrad|updat|bump)\w* {_PACKAGES}[^.;\n]{{0,30}}?\bto {_VERSION}"),
    ("transition", rf"{_PKG_VERSION}\s*(?:->|→|=>|to)\s*{_NEW}"),
    ("transition", rf"between {_PKG_VERSION} and (?:[a-z_-]+[ =])?\s*{_NEW}"),
    ("transition", rf"{_PACKAGES}\s*(?:from\s*)?{_VERSION}\s*(?:->|→|=>|to)\s*{_NEW}"),
)


@cache
def _clues() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The clues compiled on first use: only a run with symptoms reads them."""
    return tuple((role, re.compile(pattern)) for role, pattern in _CLUES)


_CANONICAL = {
    "pytorch": "torch",
    "pytorch lightning": "lightning",
    "pytorch-lightning": "lightning",
    "tgi": "text-generation-inference",
    "sklearn": "scikit-learn",
}


def _canonical(name: str) -> str:
    name = name.lower().replace("_", "-")
    if name.startswith("flash"):
        return "flash-attn"
    return _CANONICAL.get(name.replace(" ", "-"), _CANONICAL.get(name, name))


def stated_changes(symptoms: str | None) -> tuple[VersionChange, ...]:
    """Each package whose good or bad version the user's words name."""
    if not symptoms:
        return ()
    text = " ".join(symptoms.split())
    sides: dict[str, dict[str, str]] = {}
    quotes: dict[str, str] = {}
    for role, regex in _clues():
        for match in regex.finditer(text.lower()):
            package = _canonical(match.group("pkg"))
            side = sides.setdefault(package, {})
            quotes.setdefault(package, text[match.start() : match.end()])
            if role in ("transition", "reversed"):
                old, new = match.group("ver"), match.group("new")
                good, bad = (old, new) if role == "transition" else (new, old)
                side.setdefault("good", good)
                side.setdefault("bad", bad)
            else:
                side.setdefault(role, match.group("ver"))
    return tuple(
        VersionChange(
            package=package, good=side.get("good"), bad=side.get("bad"), text=quotes[package]
        )
        for package, side in sides.items()
        if side.get("good") != side.get("bad")
    )


def listing_changes(listings: Sequence[EnvListing]) -> tuple[VersionChange, ...]:
    """ML packages whose version differs between the first listing (working) and the last."""
    if len(listings) < 2:
        return ()
    first, last = listings[0], listings[-1]
    changes = []
    for package in ML_PACKAGES:
        good, bad = first.packages.get(package), last.packages.get(package)
        if good and bad and good != bad:
            text = f"{first.source}: {package}=={good}; {last.source}: {package}=={bad}"
            changes.append(
                VersionChange(package=package, good=good, bad=bad, text=text, source="listings")
            )
    return tuple(changes)


def _with_running_version(change: VersionChange, running: dict[str, str]) -> VersionChange:
    """A change whose failing side the user left out ("the same command worked with TGI
    2.0.0") fails on the version the run shows (the image tag 2.0.2 named elsewhere)."""
    bad = running.get(change.package)
    if change.bad or not bad or bad == change.good:
        return change
    return change.model_copy(update={"bad": bad})


def version_changes(evidence: Evidence) -> tuple[VersionChange, ...]:
    """The changes the user names, then those two listings show for other packages."""
    running = versions_of(evidence)
    stated = tuple(_with_running_version(c, running) for c in stated_changes(evidence.symptoms))
    named = {change.package for change in stated}
    listed = tuple(c for c in listing_changes(evidence.listings) if c.package not in named)
    return stated + listed


def versions_of(evidence: Evidence) -> dict[str, str]:
    """Package -> version, from the environment listing, log banners and the setup, then
    the versions the user's description names ("peft 0.15.0, deepspeed 0.16.5") where the
    logs print none."""
    versions = {name.lower(): version for name, version in evidence.setup.frameworks.items()}
    for name, version in evidence.environment.items():
        versions.setdefault(name.lower(), version)
    for found in _pkg_version().finditer(evidence.symptoms or ""):
        versions.setdefault(_canonical(found.group("pkg")), found.group("ver"))
    return versions


@cache
def _pkg_version() -> re.Pattern[str]:
    return re.compile(rf"(?i)(?<![\w.-]){_PKG_VERSION}")
