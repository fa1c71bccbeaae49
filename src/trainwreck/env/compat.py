"""Checks against the cited matrices: companions and pins, build variants, driver, Python, NumPy 2.

These work on a bare listing (a `pip freeze` has no Requires-Dist), so each
conflict cites the matrix row's URL instead of the package's own metadata.
"""

from __future__ import annotations

from collections.abc import Callable

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from trainwreck.env import advice, matrix
from trainwreck.env.facts import variant_from_cuda
from trainwreck.env.markers import active
from trainwreck.env.model import Conflict, Environment, Package
from trainwreck.env.pairs import toolkit_conflict


def _name(env: Environment, name: str) -> str:
    package = env.packages.get(name)
    return (package.display_name if package else "") or name


def check_rules(env: Environment) -> list[Conflict]:
    """Installed packages against the companion and pin tables."""
    conflicts: list[Conflict] = []
    for package in sorted(env.packages.values(), key=lambda p: p.name):
        if not package.version:
            continue
        seen: set[str] = set()
        for rule in matrix.rules_for(package.name, package.version):
            requirement = Requirement(rule.requires)
            dependency = requirement.name
            installed = env.packages.get(dependency)
            if dependency in seen or installed is None or not installed.version:
                continue
            if not active(requirement, env):
                continue
            seen.add(dependency)
            parsed = matrix.version_of(installed.version)
            if parsed is None or requirement.specifier.contains(Version(parsed.public), True):
                continue
            fix, commands = advice.choose(
                env, package.name, dependency, requirement.specifier, installed.version
            )
            conflicts.append(
                Conflict(
                    kind="matrix",
                    package=package.name,
                    version=package.version,
                    requirement=rule.requires,
                    dependency=dependency,
                    installed=installed.version,
                    message=(
                        f"{_name(env, package.name)} {package.version} was built for "
                        f"{rule.requires}, but you have {dependency} {installed.version}."
                    ),
                    fix=fix,
                    source=rule.source.url,
                    detail=rule.source.detail,
                    commands=commands,
                )
            )
    return conflicts


def check_variants(env: Environment) -> list[Conflict]:
    """torchvision / torchaudio built for another variant (cpu, cuXYZ) than torch."""
    torch = env.packages.get("torch")
    if torch is None or torch.variant is None:
        return []
    conflicts = []
    for name in ("torchvision", "torchaudio"):
        other = env.packages.get(name)
        if other is None or other.variant is None or other.variant == torch.variant:
            continue
        pin = f"{name}=={matrix.companion_for(name, torch.version or '') or other.public_version}"
        conflicts.append(
            Conflict(
                kind="variant",
                package=name,
                version=other.version or "?",
                requirement=f"the {torch.variant} build",
                dependency="torch",
                installed=torch.version,
                message=(
                    f"{name} {other.version} is a {other.variant} build, but torch "
                    f"{torch.version} is a {torch.variant} build."
                ),
                fix=f"Reinstall {name} from torch's {torch.variant} wheel index.",
                source="the local version labels in your listing",
                commands=(
                    f'pip install --force-reinstall --no-deps "{pin}" '
                    f"--index-url {advice.WHEEL_INDEX.format(variant=torch.variant)}",
                ),
            )
        )
    return conflicts


def _driver_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".") if part.isdigit())


def _runs_on(cuda: str, driver: str) -> bool:
    floor = matrix.driver_floor(cuda)
    return floor is not None and _driver_tuple(driver) >= _driver_tuple(floor.min_driver)


def check_driver(env: Environment) -> list[Conflict]:
    """The NVIDIA driver against the minimum for torch's CUDA runtime."""
    driver, cuda = env.facts.get("driver"), env.facts.get("torch_cuda")
    if not driver or not cuda:
        return []
    floor = matrix.driver_floor(cuda)
    if floor is None or _driver_tuple(driver) >= _driver_tuple(floor.min_driver):
        return []
    torch = env.packages.get("torch")
    release = matrix.torch_release(torch.version) if torch and torch.version else None
    usable = [c for c in (release.cuda if release else ()) if _runs_on(c, driver)]
    commands: tuple[str, ...] = ()
    fix = f"Upgrade the NVIDIA driver to {floor.min_driver} or newer (needs root, usually a reboot)"
    if usable and torch and torch.public_version:
        variant = variant_from_cuda(usable[-1])
        commands = (
            f"pip install torch=={torch.public_version} "
            f"--index-url {advice.WHEEL_INDEX.format(variant=variant)}",
        )
        fix = (
            f"Install the {variant} build of torch {torch.public_version}, which driver {driver} "
            f"can run; or u{fix[1:]}"
        )
    return [
        Conflict(
            kind="driver",
            package="torch",
            version=torch.version if torch and torch.version else "?",
            requirement=f"NVIDIA driver >= {floor.min_driver} (CUDA {cuda})",
            dependency="nvidia-driver",
            installed=driver,
            message=(
                f"torch's CUDA {cuda} runtime needs NVIDIA driver >= {floor.min_driver}, "
                f"but the driver is {driver}."
            ),
            fix=fix + ".",
            source=floor.source.url,
            detail=floor.source.detail,
            commands=commands,
        )
    ]


def check_python(env: Environment) -> list[Conflict]:
    """Python outside the versions the installed torch release ships wheels for."""
    python, torch = env.facts.get("python"), env.packages.get("torch")
    release = matrix.torch_release(torch.version) if torch and torch.version else None
    parsed = matrix.version_of(python)
    if release is None or parsed is None or release.python.contains(parsed, True):
        return []
    assert torch is not None
    return [
        Conflict(
            kind="python",
            package="torch",
            version=torch.version or "?",
            requirement=f"python{release.python}",
            dependency="python",
            installed=python,
            message=(
                f"torch {release.torch} ships wheels for Python {release.python}, "
                f"but Python is {python}."
            ),
            fix=f"Use a Python in {release.python}, or a torch release built for Python {python}.",
            source=release.sources[0].url,
            detail=release.sources[0].detail,
            severity="warning",
        )
    ]


def check_numpy2(env: Environment) -> list[Conflict]:
    """Compiled packages older than their first NumPy-2 release, next to NumPy 2."""
    numpy = env.packages.get("numpy")
    parsed = matrix.version_of(numpy.version if numpy else None)
    if numpy is None or parsed is None or parsed.major < 2:
        return []
    conflicts = []
    for row in matrix.load().numpy2:
        package: Package | None = env.packages.get(row.package)
        installed = matrix.version_of(package.public_version if package else None)
        if package is None or installed is None or installed >= Version(row.first):
            continue
        conflicts.append(
            Conflict(
                kind="numpy-abi",
                package=row.package,
                version=package.version or "?",
                requirement=f"{row.package}>={row.first} under NumPy 2",
                dependency="numpy",
                installed=numpy.version,
                message=(
                    f"{_name(env, row.package)} {package.version} was built against NumPy 1.x; "
                    f"its first release that runs under NumPy 2 is {row.first}, "
                    f"and you have numpy {numpy.version}."
                ),
                fix=(
                    f"Move {row.package} to {row.first} or newer (keeps NumPy 2); "
                    f"or move numpy below 2."
                ),
                source=row.source.url,
                detail=row.source.detail,
                commands=(
                    advice.install([f"{row.package}>={row.first}"], env),
                    advice.install(["numpy<2"], env),
                ),
            )
        )
    return conflicts


def _cuda_in_use(env: Environment) -> list[tuple[str, str]]:
    """(CUDA version, what it is) for torch's runtime and, when shown, the nvcc toolkit."""
    found = []
    if cuda := env.facts.get("torch_cuda"):
        found.append((cuda, "the CUDA torch was built with"))
    nvcc = env.facts.get("nvcc_cuda") or env.facts.get("system_cuda")
    if nvcc and nvcc != (cuda or ""):
        found.append((nvcc, "the nvcc toolkit a source build compiles with"))
    return found


def _covered(env: Environment, name: str, versions: SpecifierSet) -> Package | None:
    """The installed package when its version is inside a matrix row's range."""
    package = env.packages.get(name)
    installed = matrix.version_of(package.public_version if package else None)
    if package is None or installed is None or not versions.contains(installed, True):
        return None
    return package


def check_cuda(env: Environment) -> list[Conflict]:
    """Extensions (flash-attn, bitsandbytes) next to a CUDA their release does not support."""
    conflicts: list[Conflict] = []
    for row in matrix.load().cuda_ranges:
        if (package := _covered(env, row.package, row.versions)) is None:
            continue
        for cuda, what in _cuda_in_use(env):
            parsed = matrix.version_of(".".join(cuda.split(".")[:2]))
            if parsed is None or row.cuda.contains(parsed, True):
                continue
            conflicts.append(
                Conflict(
                    kind="cuda",
                    package=row.package,
                    version=package.version or "?",
                    requirement=f"CUDA{row.cuda}",
                    dependency="cuda",
                    installed=cuda,
                    message=(
                        f"{_name(env, row.package)} {package.version} supports CUDA{row.cuda}, "
                        f"but {what} is {cuda}."
                    ),
                    fix=(
                        f"Move {row.package} to a release that supports CUDA {cuda}, or use a "
                        f"torch build (and toolkit) with CUDA{row.cuda}."
                    ),
                    source=row.source.url,
                    detail=row.source.detail,
                    severity="warning",
                )
            )
            break
    return conflicts


def _same(left: str, right: str, match: str) -> bool:
    parts = 1 if match == "major" else 2
    return left.split(".")[:parts] == right.split(".")[:parts]


def check_toolkit(env: Environment) -> list[Conflict]:
    """DeepSpeed ops / apex, which compile with nvcc, next to an nvcc unlike torch's CUDA."""
    torch_cuda = env.facts.get("torch_cuda")
    nvcc = env.facts.get("nvcc_cuda") or env.facts.get("system_cuda")
    if not torch_cuda or not nvcc:
        return []
    conflicts = []
    for row in matrix.load().toolkits:
        if (package := _covered(env, row.package, row.versions)) is None:
            continue
        if _same(nvcc, torch_cuda, row.match):
            continue
        conflicts.append(toolkit_conflict(env, row, package.version or "?", nvcc, torch_cuda))
    return conflicts


# Every check that compares a listing with a cited matrix; `trainwreck env` and the
# environment analyzer in `diagnose` both run this one tuple, so they cannot drift apart.
CITED_CHECKS: tuple[Callable[[Environment], list[Conflict]], ...] = (
    check_rules,
    check_variants,
    check_numpy2,
    check_driver,
    check_python,
    check_cuda,
    check_toolkit,
)
