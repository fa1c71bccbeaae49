"""Guards on the environment: versions, devices, toolkits; scans of commands, sources, configs."""

from __future__ import annotations

from trainwreck.fixes.guards.base import GuardTemplate

SPECIFIERS = (
    "https://github.com/pypa/packaging/blob/45cc0ecda0a0c98d6a626cc2ae42ff233d150bab/"
    "docs/specifiers.rst"
)
SUBPROCESS = "https://docs.python.org/3.12/library/subprocess.html"
IMPORTLIB = "https://github.com/python/cpython/blob/a1c6344fc4b60d4ce5eed4bd5f2f30681e5042c4/Doc/library/importlib.rst"
ARCH_LIST = "https://github.com/pytorch/pytorch/blob/v2.14.0/torch/cuda/__init__.py#L1241"
RE_MODULE = "https://github.com/python/cpython/blob/ad2d16830291f6c62aee5c14b3cf913b877753d8/Doc/library/re.rst"
TRAINING_ARGS = (
    "https://github.com/huggingface/transformers/blob/"
    "fd798335c275520af034c678b35e8167820c7c80/src/transformers/training_args.py"
)
WARNINGS = "https://github.com/python/cpython/pull/117147.diff"
PATHLIB = "https://github.com/python/cpython/blob/1e7eea5b68d8da4145a55255571195fafe7cf764/Doc/library/pathlib.rst"

_VERSION_PIN = '''import platform
from importlib.metadata import PackageNotFoundError, version

from packaging.specifiers import SpecifierSet
from packaging.version import Version


def check_versions(requirements=$requirements):
    """Fail at start-up when an installed version is outside its tested range."""
    problems = []
    for line in requirements:
        name, _, spec = line.partition(" ")
        try:
            installed = platform.python_version() if name == "python" else version(name)
        except PackageNotFoundError:
            problems.append(f"{name} is not installed (need {spec})")
            continue
        if Version(installed) not in SpecifierSet(spec):
            problems.append(f"{name} {installed} is outside {spec}")
    if problems:
        raise RuntimeError("; ".join(problems))

# check_versions()  # at the top of the entry point and in the image smoke test
'''

_COMMAND_SCAN = '''import re
import subprocess


def check_command(command=$command, pattern=$pattern, max_matches=$max_matches, timeout_s=600):
    """Run a diagnostic command; fail on a non-zero exit or lines matching PATTERN."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s)
    output = done.stdout + done.stderr
    hits = [line for line in output.splitlines() if re.search(pattern, line)]
    if done.returncode != 0 or len(hits) > max_matches:
        raise RuntimeError(
            f"{' '.join(command)} exited {done.returncode}; {len(hits)} lines match "
            f"{pattern!r}: {hits[:3]}"
        )
    return output

# check_command()  # as an image build step and at job start
'''

_IMPORT_SMOKE = '''import importlib


def smoke_import(modules=$modules, max_failures=$max_failures):
    """Import every module the job needs; fail on more than MAX_FAILURES import errors."""
    failures = {}
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception as exc:  # ImportError, OSError (undefined symbol), RuntimeError
            failures[name] = f"{type(exc).__name__}: {exc}"
    if len(failures) > max_failures:
        raise RuntimeError(f"imports failed: {failures}")

# smoke_import()  # after every dependency change, before launching jobs
'''

_CUDA_DEVICE = '''import torch


def check_cuda_device(min_capability=$min_capability):
    """Fail when torch has no CUDA, a GPU's sm_XY is not in the build, or it is too old."""
    if torch.version.cuda is None or not torch.cuda.is_available():
        raise RuntimeError(f"no usable CUDA: torch {torch.__version__}, cuda {torch.version.cuda}")
    built = set(torch.cuda.get_arch_list())
    for index in range(torch.cuda.device_count()):
        major, minor = torch.cuda.get_device_capability(index)
        if f"sm_{major}{minor}" not in built and f"compute_{major}{minor}" not in built:
            raise RuntimeError(f"cuda:{index} is sm_{major}{minor}; this torch has {sorted(built)}")
        if (major, minor) < tuple(min_capability):
            raise RuntimeError(f"cuda:{index} has capability {major}.{minor} < {min_capability}")
        torch.ones(1, device=f"cuda:{index}").mul_(2)  # one real kernel launch

# check_cuda_device()  # at job start, before loading data
'''

_NVCC = '''import re
import subprocess

import torch


def check_nvcc(max_minor_difference=$max_minor_difference):
    """Fail when nvcc's CUDA release differs from the one torch was built with."""
    text = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout
    found = re.search(r"release (\\d+)\\.(\\d+)", text)
    if found is None or torch.version.cuda is None:
        raise RuntimeError(
            f"nvcc release unknown ({text.strip()!r}), torch cuda {torch.version.cuda}"
        )
    nvcc = (int(found.group(1)), int(found.group(2)))
    major, minor = (int(x) for x in torch.version.cuda.split(".")[:2])
    if nvcc[0] != major or abs(nvcc[1] - minor) > max_minor_difference:
        raise RuntimeError(f"nvcc {nvcc[0]}.{nvcc[1]} vs torch CUDA {major}.{minor}")

# check_nvcc()  # before building DeepSpeed ops, flash-attn or other CUDA extensions
'''

_SOURCE_SCAN = '''import re
from pathlib import Path


def scan_sources(root=".", pattern=$pattern, max_hits=$max_hits, glob=$glob):
    """Fail when files (code, configs, logs) match PATTERN more than MAX_HITS times."""
    rule = re.compile(pattern)
    hits = []
    for path in Path(root).glob(glob):
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if rule.search(line):
                hits.append(f"{path}:{number}: {line.strip()}")
    if len(hits) > max_hits:
        raise AssertionError(f"{len(hits)} lines match {pattern!r}:\\n" + "\\n".join(hits[:20]))

# scan_sources("src")  # in CI
'''

_CONFIG_BOUNDS = '''def check_config(config, key=$key, low=$low, high=$high):
    """Fail when a resolved config value (dotted KEY) is missing or outside [LOW, HIGH]."""
    value = config
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else getattr(value, part, None)
    if not isinstance(value, (int, float)):
        raise ValueError(f"{key} is {value!r}, expected a number in [{low}, {high}]")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{key}={value} is outside [{low}, {high}]")
    return value

# check_config(training_args.to_dict())  # or json.load(open("ds_config.json"))
'''

_STALE_FILES = '''import time
from pathlib import Path


def check_stale_files(root, glob=$glob, max_age_s=$max_age_s):
    """Fail on lock files older than MAX_AGE_S (left by a killed build) under ROOT."""
    now = time.time()
    stale = [p for p in Path(root).expanduser().glob(glob) if now - p.stat().st_mtime > max_age_s]
    if stale:
        raise RuntimeError(f"{len(stale)} stale files older than {max_age_s} s: {stale[:5]}")

# check_stale_files("~/.cache/torch_extensions")  # at job start, when no build is running
'''

_WARNINGS = '''import logging
import re
import warnings
from contextlib import contextmanager


@contextmanager
def fail_on_warning(pattern=$pattern, max_hits=$max_hits):
    """Turn warnings (and log records) matching PATTERN into a failure past MAX_HITS."""
    hits = []

    class Catch(logging.Handler):
        def emit(self, record):
            if re.search(pattern, record.getMessage()):
                hits.append(record.getMessage())

    handler = Catch()
    logging.getLogger().addHandler(handler)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield hits
        hits += [str(w.message) for w in caught if re.search(pattern, str(w.message))]
    finally:
        logging.getLogger().removeHandler(handler)
    if len(hits) > max_hits:
        raise RuntimeError(f"{len(hits)} warnings match {pattern!r}: {hits[:3]}")

# with fail_on_warning(): trainer.train()  # in a short smoke run
'''

TEMPLATES = (
    GuardTemplate(
        "version-pin",
        "assert installed versions sit inside the tested ranges",
        {"requirements": ("torch >=2.1",)},
        SPECIFIERS,
        _VERSION_PIN,
    ),
    GuardTemplate(
        "command-scan",
        "run a diagnostic command and fail on matching lines",
        {"command": ("pip", "check"), "pattern": "has requirement|requires", "max_matches": 0},
        SUBPROCESS,
        _COMMAND_SCAN,
    ),
    GuardTemplate(
        "import-smoke",
        "import every module the job needs",
        {"modules": ("torch",), "max_failures": 0},
        IMPORTLIB,
        _IMPORT_SMOKE,
    ),
    GuardTemplate(
        "cuda-device",
        "fail when the torch build lacks the GPU's arch or capability",
        {"min_capability": (7, 0)},
        ARCH_LIST,
        _CUDA_DEVICE,
    ),
    GuardTemplate(
        "nvcc-match",
        "compare nvcc's CUDA release with torch.version.cuda",
        {"max_minor_difference": 0},
        SUBPROCESS,
        _NVCC,
    ),
    GuardTemplate(
        "source-scan",
        "a CI rule: fail when sources, configs or logs match a pattern",
        {"pattern": r"torch\.load\((?!.*weights_only)", "max_hits": 0, "glob": "**/*.py"},
        RE_MODULE,
        _SOURCE_SCAN,
    ),
    GuardTemplate(
        "config-bounds",
        "fail when resolved config values fall outside bounds",
        {"key": "max_grad_norm", "low": 1e-06, "high": None},
        TRAINING_ARGS,
        _CONFIG_BOUNDS,
    ),
    GuardTemplate(
        "stale-files",
        "fail on lock files older than an age",
        {"glob": "**/lock", "max_age_s": 3600},
        PATHLIB,
        _STALE_FILES,
    ),
    GuardTemplate(
        "warning-as-error",
        "fail a smoke run on matching warnings or log lines",
        {"pattern": "None of the inputs have requires_grad", "max_hits": 0},
        WARNINGS,
        _WARNINGS,
    ),
)
