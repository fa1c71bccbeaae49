"""Error messages traced to the package that was built against another torch / NumPy / CUDA.

An `undefined symbol` in a torch extension, NumPy's "compiled using NumPy 1.x"
banner, torchvision's CUDA-version check or missing operator, xFormers' "was
built for" warning: each names (or implies) the package whose binary does not
match, and the fix is the reinstall command for the versions actually
installed. Works on plain text lines, so both `trainwreck env --log` and the
diagnose analyzer use it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from trainwreck.env import advice, matrix
from trainwreck.env.model import Conflict, Environment, normalise
from trainwreck.env.pairs import trace_pairs


@dataclass(frozen=True)
class Line:
    source: str
    line: int | None
    text: str

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}" if self.line else self.source


_SITE = r"(?:site|dist)-packages/"
_UNDEFINED = re.compile(r"(?P<path>[\w./+-]*?\.so)(?:\.[\d.]+)?: undefined symbol: (?P<symbol>\w+)")
_TORCH_SYMBOL = re.compile(r"^_ZNK?(?:3c10|2at|5torch|6caffe2)")
_NUMPY_BANNER = re.compile(r"A module that was compiled using NumPy 1\.x cannot be run in")
_NUMPY_VERSION = re.compile(r"^NumPy (?P<numpy>2\.\d+(?:\.\d+)?) as it may crash")
_ARRAY_API = re.compile(r"_ARRAY_API not found|numpy\.core\.multiarray failed to import")
_NUMPY_TOO_OLD = re.compile(
    r"module compiled against (?:ABI|API) version (?P<built>0x[0-9a-f]+) but this version of "
    r"numpy is (?P<have>0x[0-9a-f]+)"
)
_VISION_CUDA = re.compile(
    r"PyTorch and torchvision were compiled with different CUDA (?:major )?versions\.\s*"
    r"PyTorch has CUDA Version=(?P<torch>[\d.]+) and "
    r"torchvision has CUDA\s*Version=(?P<vision>[\d.]+)"
)
_VISION_OP = re.compile(
    r"(?:operator torchvision::\w+ does not exist|No such operator torchvision::\w+)"
)
_XFORMERS = re.compile(r"PyTorch (?P<built>\d\S*) with CUDA \d+ \(you have (?P<have>\d[^)]*)\)")
_FRAME = re.compile(rf'File "[^"]*{_SITE}(?P<top>[A-Za-z0-9_]+)[/.]')
# import names whose distribution is called otherwise
_DISTRIBUTIONS = {
    "flash_attn_2_cuda": "flash-attn",
    "flash_attn": "flash-attn",
    "amp_C": "apex",
    "fused_layer_norm_cuda": "apex",
    "sklearn": "scikit-learn",
    "cv2": "opencv-python",
    "PIL": "pillow",
    "yaml": "pyyaml",
}


def distribution(import_name: str) -> str:
    """The distribution an import name (or a top-level .so stem) belongs to."""
    stem = import_name.split(".")[0]
    return _DISTRIBUTIONS.get(stem, normalise(stem))


def _library_top(path: str) -> str:
    """The top-level package (or module stem) of a shared library path."""
    tail = re.split(_SITE, path)[-1]
    return tail.split("/")[0] if "/" in tail and tail != path else tail.rsplit("/", 1)[-1]


def _installed(env: Environment, name: str) -> str | None:
    package = env.packages.get(name)
    return package.version if package else None


def _rebuild(env: Environment, name: str) -> tuple[str, tuple[str, ...]]:
    """(sentence, commands) that give `name` a build for the installed torch."""
    torch = _installed(env, "torch")
    version = _installed(env, name)
    companion = matrix.companion_for(name, torch) if torch else None
    if companion:
        return (
            f"Install {name} {companion}, the release built for torch {torch}.",
            (advice.install([f"{name}=={companion}"], env),),
        )
    if name in advice.PYTORCH_FAMILY and torch:
        keep = f"torch=={torch.split('+')[0]}"
        return (
            f"Reinstall {name} with torch pinned to {keep[7:]}, so pip picks the {name} release "
            "built for it, from torch's wheel index.",
            (advice.install([keep, name], env),),
        )
    if name in advice.PYTORCH_FAMILY:
        return (
            f"Install the {name} release built for your torch, from the same wheel index "
            "(cpu or cuXYZ) as torch, in one pip command with torch pinned.",
            ('python -c "import torch; print(torch.__version__)"',),
        )
    pin = f"{name}=={version.split('+')[0]}" if version else name
    against = f"torch {torch}" if torch else "the installed torch"
    return (
        f"Rebuild {name} against {against} (no build isolation, so the build sees that torch), "
        "or install a wheel made for it.",
        (
            f"pip uninstall -y {name}",
            f"pip install --no-build-isolation --no-cache-dir --no-binary {name} {pin}",
        ),
    )


def _link(
    kind: str, name: str, env: Environment, line: Line, message: str, **extra: str
) -> Conflict:
    fix, commands = extra.pop("fix", ""), extra.pop("commands", "")
    return Conflict(
        kind=kind,
        package=name,
        version=_installed(env, name) or "?",
        requirement=extra.get("requirement", ""),
        dependency=extra.get("dependency", "torch"),
        installed=extra.get("installed") or _installed(env, extra.get("dependency", "torch")),
        message=message,
        fix=fix,
        source=extra.get("source", "the error message in your log"),
        commands=tuple(c for c in commands.split("\n") if c),
        evidence=(f"{line.where}: {line.text.strip()}",),
    )


def _numpy_culprit(lines: list[Line], start: int) -> str | None:
    """The last non-NumPy package frame in the traceback under NumPy's banner."""
    culprit = None
    for line in lines[start : start + 60]:
        match = _FRAME.search(line.text)
        if match and match.group("top") not in ("numpy", "importlib"):
            culprit = distribution(match.group("top"))
        if line.text.startswith(("AttributeError", "ImportError")) and culprit:
            break
    return culprit


def _numpy_link(env: Environment, lines: list[Line], index: int) -> Conflict | None:
    line = lines[index]
    numpy = _installed(env, "numpy")
    for following in lines[index : index + 3]:
        match = _NUMPY_VERSION.search(following.text.strip())
        if match:
            numpy = numpy or match.group("numpy")
    culprit = _numpy_culprit(lines, index)
    if culprit is None:  # NumPy's banner alone says no more than the knowledge base does
        return None
    first = next((r for r in matrix.load().numpy2 if r.package == culprit), None)
    commands = [advice.install(["numpy<2"], env)]
    upgrade = f"upgrade {culprit} to a release built against NumPy 2"
    if first:
        commands.insert(0, advice.install([f"{culprit}>={first.first}"], env))
        upgrade = f"move {culprit} to {first.first} or newer (its first NumPy-2 release)"
    return _link(
        "numpy-abi",
        culprit,
        env,
        line,
        f"{culprit} was compiled against NumPy 1.x and is being imported under "
        f"NumPy {numpy or '2.x'}.",
        dependency="numpy",
        requirement="numpy<2 (the ABI it was built for)",
        installed=numpy or "",
        fix=f"Either {upgrade}, or keep NumPy below 2.",
        commands="\n".join(commands),
        source=first.source.url
        if first
        else "https://numpy.org/doc/2.0/dev/depending_on_numpy.html",
    )


def _torch_built(env: Environment, line: Line, name: str, message: str) -> Conflict:
    """A link for a torch extension built against another torch: reinstall or rebuild it."""
    fix, commands = _rebuild(env, name)
    return _link("abi", name, env, line, message, fix=fix, commands="\n".join(commands))


def _torch_abi(env: Environment, line: Line) -> Conflict | None:
    """undefined torch symbol, torchvision's CUDA check or missing operator, xFormers' warning."""
    text = line.text
    if (match := _UNDEFINED.search(text)) and _TORCH_SYMBOL.match(match.group("symbol")):
        name = distribution(_library_top(match.group("path")))
        torch = _installed(env, "torch")
        return _torch_built(
            env,
            line,
            name,
            f"{name} was built against another torch: its library needs the torch symbol "
            f"{match.group('symbol')}, which the installed torch"
            + (f" {torch}" if torch else "")
            + " does not export.",
        )
    if match := _VISION_CUDA.search(text):
        return _torch_built(
            env,
            line,
            "torchvision",
            f"torchvision was built for CUDA {match.group('vision')}, "
            f"torch for CUDA {match.group('torch')}.",
        )
    if _VISION_OP.search(text) and _installed(env, "torch"):
        return _torch_built(
            env,
            line,
            "torchvision",
            "torchvision's compiled operators did not load: its binary belongs to another torch "
            "release or build variant.",
        )
    if match := _XFORMERS.search(text):
        return _torch_built(
            env,
            line,
            "xformers",
            f"xformers was built for torch {match.group('built')}, "
            f"but torch is {match.group('have')}.",
        )
    return None


def _numpy_too_old(env: Environment, line: Line) -> Conflict | None:
    """A module built against a newer NumPy C API than the installed numpy offers."""
    match = _NUMPY_TOO_OLD.search(line.text)
    if not match:
        return None
    return _link(
        "abi",
        "numpy",
        env,
        line,
        f"A module was built against NumPy C API {match.group('built')}, newer than the "
        f"installed numpy's {match.group('have')}.",
        dependency="numpy",
        fix="Upgrade numpy to the release the module was built with (or newer).",
        commands=advice.install(["numpy>" + (_installed(env, "numpy") or "0")], env),
    )


def _one(env: Environment, lines: list[Line], index: int) -> Conflict | None:
    if _NUMPY_BANNER.search(lines[index].text):
        return _numpy_link(env, lines, index)
    return _torch_abi(env, lines[index]) or _numpy_too_old(env, lines[index])


def trace(env: Environment, lines: Iterable[Line]) -> list[Conflict]:
    """One link per (kind, package) for the binary-mismatch messages in the lines, then the
    version pairs they state."""
    ordered = list(lines)
    found: dict[tuple[str, str], Conflict] = {}
    for index in range(len(ordered)):
        conflict = _one(env, ordered, index)
        if conflict and (conflict.kind, conflict.package) not in found:
            found[(conflict.kind, conflict.package)] = conflict
    return [*found.values(), *trace_pairs(env, ordered)]
