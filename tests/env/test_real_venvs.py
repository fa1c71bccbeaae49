"""Real broken environments, built in throwaway venvs: their real import errors and `pip freeze`.

Opt-in (`pytest -m slow tests/env`), about 30 s. Offline: every wheel comes from this machine's
local wheel folders (torch 2.13.0+cpu is the only torch used; no other torch is downloaded).

(a) NumPy 2 next to scipy 1.11.4, whose extensions were built against NumPy 1.x (installed
    with --no-deps, since scipy 1.11.4 itself declares numpy<1.28).
(b) torch 2.13.0+cpu next to torchvision 0.29.0, which was built for torch 2.14.0 (--no-deps).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from trainwreck.env import check, read_listing, read_live
from trainwreck.env.links import Line, trace
from trainwreck.pipeline import diagnose

pytestmark = pytest.mark.slow

WHEEL_DIRS = ("/opt/wheels", "/opt/pypi/files", "/opt/pypi-more/files")
OFFLINE = [
    "--no-index",
    *(arg for d in WHEEL_DIRS if Path(d).is_dir() for arg in ("--find-links", d)),
]


def _has_wheel(prefix: str) -> bool:
    return any(
        p.name.startswith(prefix) for d in WHEEL_DIRS if Path(d).is_dir() for p in Path(d).iterdir()
    )


def _venv(path: Path, *installs: list[str]) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    pip = [str(path / "bin" / "python"), "-m", "pip", "install", "-q", *OFFLINE]
    for args in installs:
        subprocess.run([*pip, *args], check=True, capture_output=True)
    return path


def _run(venv: Path, code: str) -> tuple[int, str]:
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout + done.stderr


def _capture(venv: Path, tmp: Path, code: str) -> tuple[Path, Path, str]:
    """(log, freeze) files written from the venv, and the log text."""
    status, output = _run(venv, code)
    assert status != 0, "the broken environment imported cleanly"
    freeze = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "freeze"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    log, listing = tmp / "import_error.log", tmp / "pip-freeze.txt"
    log.write_text(output)
    listing.write_text(freeze)
    return log, listing, output


def _site(venv: Path) -> str:
    return str(next((venv / "lib").glob("python3.*/site-packages")))


def test_numpy2_with_an_extension_built_for_numpy1(tmp_path: Path) -> None:
    if not (_has_wheel("scipy-1.11.4-") and _has_wheel("numpy-2.0.2-")):
        pytest.skip("scipy 1.11.4 / numpy 2.0.2 wheels are not on this machine")
    venv = _venv(tmp_path / "venv", ["--no-deps", "numpy==2.0.2", "scipy==1.11.4"])
    log, listing, output = _capture(venv, tmp_path, "import scipy.linalg")
    assert "A module that was compiled using NumPy 1.x cannot be run in" in output
    assert "numpy==2.0.2" in listing.read_text()

    diagnosis = diagnose([str(log)], env_files=[str(listing)])
    assert diagnosis.hypotheses[0].id == "numpy2-abi-mismatch"
    found = {f.id: f for f in diagnosis.findings}
    assert found["env.numpy_abi"].values["package"] == "scipy"
    assert 'pip install "scipy>=1.13.1"' in found["env.numpy_abi"].summary

    env = read_listing(listing.read_text(), str(listing))  # the listing alone, no log
    (conflict,) = [c for c in check(env) if c.kind == "numpy-abi"]
    assert (conflict.package, conflict.installed) == ("scipy", "2.0.2")

    live = read_live(paths=[_site(venv)])  # the venv's own metadata: scipy's Requires-Dist
    (declared,) = [c for c in check(live) if c.kind == "requirement"]
    assert declared.message.startswith("scipy 1.11.4 has requirement numpy")
    lines = [Line("log", n, t) for n, t in enumerate(output.splitlines(), 1)]
    (link,) = trace(live, lines)
    assert link.package == "scipy"


def test_torchvision_built_for_another_torch(tmp_path: Path) -> None:
    if not (_has_wheel("torch-2.13.0") and _has_wheel("torchvision-0.29.0-")):
        pytest.skip("torch 2.13.0 / torchvision 0.29.0 wheels are not on this machine")
    venv = _venv(
        tmp_path / "venv", ["torch==2.13.0", "pillow"], ["--no-deps", "torchvision==0.29.0"]
    )
    log, listing, output = _capture(venv, tmp_path, "import torchvision")
    assert "operator torchvision::nms does not exist" in output

    diagnosis = diagnose([str(log)], env_files=[str(listing)])
    assert diagnosis.hypotheses[0].id == "torchvision-torch-build-mismatch"
    link = next(f for f in diagnosis.findings if f.id == "env.abi_mismatch")
    assert (
        "pip install torch==2.13.0 torchvision --index-url https://download.pytorch.org/whl/cpu"
        in link.summary
    )

    live = read_live(paths=[_site(venv)])
    (declared,) = [c for c in check(live) if (c.package, c.dependency) == ("torchvision", "torch")]
    assert declared.message == (
        "torchvision 0.29.0 has requirement torch==2.14.0, but you have torch 2.13.0+cpu."
    )
    assert declared.commands[0] == (
        "pip install torch==2.13.0 torchvision --index-url https://download.pytorch.org/whl/cpu"
    )
