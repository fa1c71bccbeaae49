"""Conflict analysis: declared requirements, cited matrices, fixes that name the side to move."""

from __future__ import annotations

from pathlib import Path

from trainwreck.env import Environment, Facts, Package, check, matrix, merge, read_listing
from trainwreck.env.known_bugs import known_bugs
from trainwreck.env.links import Line, trace
from trainwreck.kb import load

CASES = Path(__file__).parents[1] / "cases"


def live_like(*packages: tuple[str, str, tuple[str, ...]], python: str = "3.11.7") -> Environment:
    """An environment as importlib.metadata shows it: versions with Requires-Dist."""
    return Environment(
        packages={
            name: Package(name, version, name, requires=reqs) for name, version, reqs in packages
        },
        facts=Facts({"python": python}),
        live=True,
    )


def test_requires_dist_conflict_reads_like_pip_check_and_moves_the_companion() -> None:
    env = live_like(
        ("torch", "2.4.0+cu121", ()),
        ("torchvision", "0.18.1+cu121", ("torch==2.3.1", "numpy", "scipy; extra == 'scipy'")),
        ("numpy", "1.26.4", ()),
    )
    (conflict,) = check(env)
    assert conflict.message == (
        "torchvision 0.18.1+cu121 has requirement torch==2.3.1, but you have torch 2.4.0+cu121."
    )
    # torch stays: the release of torchvision built for torch 2.4 is known from the matrix
    assert conflict.fix.startswith("Move torchvision to 0.19.*")
    assert conflict.commands[0] == (
        'pip install "torchvision==0.19.*" --index-url https://download.pytorch.org/whl/cu121'
    )
    assert conflict.commands[1] == (
        "pip install torch==2.3.1 --index-url https://download.pytorch.org/whl/cu121"
    )
    assert conflict.source == "torchvision 0.18.1+cu121 Requires-Dist: torch==2.3.1"


def test_missing_requirement_and_markers() -> None:
    env = live_like(
        ("peft", "0.11.1", ("accelerate>=0.21.0", "tomli; python_version < '3.11'")),
    )
    (conflict,) = check(env)  # tomli's marker is false on 3.11
    assert conflict.message == "peft 0.11.1 requires accelerate, which is not installed."
    assert conflict.commands == ('pip install "accelerate>=0.21.0"',)


def test_local_label_satisfies_a_plain_pin() -> None:
    env = live_like(("torch", "2.3.1+cu121", ()), ("xformers", "0.0.27", ("torch==2.3.1",)))
    assert check(env) == []


def test_moving_the_dependency_is_checked_against_every_other_requirer() -> None:
    env = live_like(
        ("numpy", "2.1.2", ()),
        ("oldlib", "1.0", ("numpy<2",)),
        ("newlib", "3.0", ("numpy>=2.1",)),
    )
    (conflict,) = check(env)
    assert conflict.package == "oldlib"
    assert "moving numpy instead would break" not in conflict.fix  # a range, no single target
    assert conflict.commands == ('pip install "numpy<2"',)


def test_exact_move_that_breaks_another_package_says_so() -> None:
    env = live_like(
        ("transformers", "4.45.0", ()),
        ("a", "1.0", ("transformers==4.40.0",)),
        ("b", "1.0", ("transformers>=4.44",)),
    )
    conflict = next(c for c in check(env) if c.package == "a")
    assert "b 1.0 requires transformers>=4.44" in conflict.fix
    assert conflict.commands == ("pip install --upgrade a",)


def test_listing_conflicts_cite_the_matrix_row() -> None:
    env = read_listing(
        "torch==2.4.0+cu121\ntorchvision==0.18.1+cu121\ntorchaudio==2.3.1+cu121\n"
        "numpy==2.1.2\npandas==2.1.4\nvllm==0.6.3\n"
    )
    by_package = {c.package: c for c in check(env)}
    vision = by_package["torchvision"]
    assert vision.kind == "matrix"
    assert (
        vision.source
        == "https://github.com/pytorch/vision/commit/53e095474c5303e84d4e7e5575227d04e8a57110"
    )
    audio = by_package["torchaudio"]
    assert audio.requirement == "torch==2.3.1"
    assert audio.commands[0].startswith("pip install torchaudio==2.4.0 ")
    pandas = by_package["pandas"]
    assert pandas.kind == "numpy-abi"
    assert pandas.commands == ('pip install "pandas>=2.2.2"', 'pip install "numpy<2"')
    vllm = by_package["vllm"]  # vllm 0.6.3 pins torch 2.4.0 (fine) and torchvision==0.19 (not)
    assert (vllm.dependency, vllm.requirement) == ("torchvision", "torchvision==0.19")


def test_variant_mismatch_between_torch_and_torchvision() -> None:
    env = read_listing("torch==2.2.1+cpu\ntorchvision==0.17.1+cu121\n")
    (conflict,) = [c for c in check(env) if c.kind == "variant"]
    assert conflict.message == (
        "torchvision 0.17.1+cu121 is a cu121 build, but torch 2.2.1+cpu is a cpu build."
    )
    assert conflict.commands == (
        'pip install --force-reinstall --no-deps "torchvision==0.17.*" '
        "--index-url https://download.pytorch.org/whl/cpu",
    )


def test_driver_too_old_for_torch_cuda_suggests_a_build_the_driver_runs() -> None:
    smi = (CASES / "colabdock-jax-cpu-jaxlib-28/nvidia-smi.txt").read_text()
    old_driver = smi.replace("550.144.03", "470.86")
    env = merge([read_listing("torch==2.4.0+cu121\n"), read_listing(old_driver)])
    (conflict,) = [c for c in check(env) if c.kind == "driver"]
    assert conflict.requirement == "NVIDIA driver >= 525 (CUDA 12.1)"
    # cu118 runs on any 11.x-capable driver (>= 450.80.02) under minor version compatibility
    assert conflict.commands == (
        "pip install torch==2.4.0 --index-url https://download.pytorch.org/whl/cu118",
    )
    assert "minor-version-compatibility" in conflict.source
    fine = merge([read_listing("torch==2.4.0+cu121\n"), read_listing(smi)])
    assert not [c for c in check(fine) if c.kind == "driver"]


def test_python_outside_torch_window_is_a_warning() -> None:
    env = Environment(
        packages={"torch": Package("torch", "2.1.2", "torch")}, facts=Facts({"python": "3.12.1"})
    )
    (conflict,) = check(env)
    assert (conflict.kind, conflict.severity) == ("python", "warning")


def test_matrix_lookups() -> None:
    assert matrix.companion_for("torchvision", "2.6.0") == "0.21.0"  # exact row first
    assert matrix.companion_for("torchvision", "2.6.1") == "0.21.*"
    assert matrix.companion_for("torchaudio", "2.12.0") == "2.11.*"  # stable ABI from 2.11
    assert matrix.companion_for("torchvision", "3.0.0") is None
    release = matrix.torch_release("2.13.0+cpu")
    assert release is not None and release.python.contains("3.11.7")
    assert release.cuda == ("12.6", "13.0", "13.2")
    floor = matrix.driver_floor("10.2")
    assert floor is not None and floor.min_driver == "440.33"
    assert matrix.driver_floor("12.8").min_driver == "525"  # type: ignore[union-attr]


def test_every_matrix_row_cites_a_pinned_https_source() -> None:
    loaded = matrix.load()
    sources = [r.source for r in loaded.rules] + [d.source for d in loaded.drivers]
    sources += [s for r in loaded.torch_releases for s in r.sources] + [
        n.source for n in loaded.numpy2
    ]
    for source in sources:
        assert source.url.startswith("https://") and source.detail
        assert "/blob/main/" not in source.url and "/latest/" not in source.url


def test_known_bug_in_range_is_reported_without_any_log() -> None:
    env = read_listing("transformers==4.48.0\nflash-attn==2.6.2\n")
    bugs = {bug.page: bug for bug in known_bugs(env, load())}
    # every fixed transformers bug whose range holds 4.48.0; flash-attn 2.6.2 is in none
    assert {bug.package for bug in bugs.values()} == {"transformers"}
    accumulation = bugs["transformers-grad-accum-loss-scaled"]
    assert accumulation.fixed_in == "4.48.1"
    assert accumulation.url and accumulation.url.startswith("https://")
    assert bugs["reward-model-pad-equals-eos-scores-inside-prompt"].fixed_in == "4.49.0"


def test_undefined_symbol_traced_to_flash_attn_with_the_reinstall_command() -> None:
    log = (CASES / "flash-attn-undefined-symbol-931/train.log").read_text().splitlines()
    env = read_listing("torch==2.2.0+cu121\nflash-attn==2.5.8\n")
    (link,) = trace(env, [Line("train.log", n, t) for n, t in enumerate(log, 1)])
    assert link.package == "flash-attn"
    assert link.evidence[0].startswith("train.log:9: ")
    assert link.commands[-1] == (
        "pip install --no-build-isolation --no-cache-dir --no-binary flash-attn flash-attn==2.5.8"
    )


def test_torchvision_operator_error_uses_the_companion_for_the_installed_torch() -> None:
    env = read_listing("torch==2.5.1+cu124\ntorchvision==0.19.1+cu124\n")
    lines = [Line("log", 1, "RuntimeError: operator torchvision::nms does not exist")]
    (link,) = trace(env, lines)
    assert link.commands == (
        'pip install "torchvision==0.20.*" --index-url https://download.pytorch.org/whl/cu124',
    )
    assert trace(read_listing("numpy==1.26.4\n"), lines) == []  # no torch known: the KB says it
