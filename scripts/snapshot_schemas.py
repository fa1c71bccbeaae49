"""Write config-schema snapshots for one framework, one JSON file per release.

The fields are read statically with `ast` from the framework's source at each
release, so no old version (and no CUDA build of torch) has to be installed.
A source is a bare git directory plus tags (`fetch github:owner/name` gives one),
a wheel downloaded with `pip download --no-deps`, or an unpacked source tree.

    python scripts/snapshot_schemas.py trl --git-dir /path/repo --tags v0.19.1 v0.20.0
    python scripts/snapshot_schemas.py transformers --wheel transformers-4.46.3-*.whl
    python scripts/snapshot_schemas.py peft --source ./peft-checkout --version 0.13.2

Output: src/trainwreck/verify/schemas/<framework>/<version>.json. Only what the
source states is written (names, annotations as text, literal defaults, help,
choices from enums and Literal types, aliases and deprecation notes).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _schema_ast import ClassInfo, harvest_module
from _schema_specs import SPECS, Spec

OUT_DIR = Path(__file__).resolve().parent.parent / "src" / "trainwreck" / "verify" / "schemas"


class Source:
    """Files of one release, addressed by their path inside the repository."""

    label = ""

    def read(self, path: str) -> str | None:
        raise NotImplementedError

    def listing(self) -> list[str]:
        raise NotImplementedError


class GitSource(Source):
    def __init__(self, git_dir: str, tag: str) -> None:
        self.git_dir, self.tag, self.label = git_dir, tag, tag
        self._files: list[str] | None = None

    def _git(self, *args: str) -> str | None:
        done = subprocess.run(
            ["git", f"--git-dir={self.git_dir}", *args], capture_output=True, text=True
        )
        return done.stdout if done.returncode == 0 else None

    def read(self, path: str) -> str | None:
        return self._git("show", f"{self.tag}:{path}")

    def listing(self) -> list[str]:
        if self._files is None:
            self._files = (self._git("ls-tree", "-r", "--name-only", self.tag) or "").split()
        return self._files


class WheelSource(Source):
    """A wheel holds the package without the repository's `src/` prefix."""

    def __init__(self, wheel: str, prefix: str) -> None:
        self.archive, self.prefix = zipfile.ZipFile(wheel), prefix
        self.label = f"PyPI wheel {Path(wheel).name}"

    def read(self, path: str) -> str | None:
        try:
            return self.archive.read(path.removeprefix(self.prefix)).decode("utf-8")
        except KeyError:
            return None

    def listing(self) -> list[str]:
        return [self.prefix + name for name in self.archive.namelist()]


class TreeSource(Source):
    def __init__(self, root: str) -> None:
        self.root, self.label = Path(root), f"source tree {root}"

    def read(self, path: str) -> str | None:
        file = self.root / path
        return file.read_text(encoding="utf-8") if file.is_file() else None

    def listing(self) -> list[str]:
        return [str(p.relative_to(self.root)) for p in self.root.rglob("*.py")]


def _first(source: Source, candidates: tuple[str, ...]) -> tuple[str, str] | None:
    for path in candidates:
        text = source.read(path)
        if text is not None:
            return path, text
    return None


def _files(spec: Spec, source: Source) -> Iterator[tuple[str, str]]:
    """Every file the spec names (the first existing candidate of each), then globs."""
    seen: set[str] = set()
    for candidates in spec.files:
        found = _first(source, candidates)
        if found and found[0] not in seen:
            seen.add(found[0])
            yield found
    for pattern in spec.globs:
        for path in sorted(p for p in source.listing() if re.fullmatch(pattern, p)):
            text = source.read(path)
            if text is not None and path not in seen:
                seen.add(path)
                yield path, text


def snapshot(spec: Spec, source: Source, version: str) -> dict[str, object]:
    """The schema of one release as a JSON-able dict."""
    classes: dict[str, ClassInfo] = {}
    aliases: dict[str, list[object]] = {}
    keys: dict[str, set[str]] = {}
    files: list[str] = []
    for path, text in _files(spec, source):
        kinds = tuple(
            kind
            for pattern, group in spec.key_harvest.items()
            if re.fullmatch(pattern, path)
            for kind in group
        )
        harvest = harvest_module(text, path, tuple(dict.fromkeys(kinds)))
        if harvest is None:
            print(f"warning: {source.label}: {path} does not parse", file=sys.stderr)
            continue
        files.append(path)
        for name, info in harvest.classes.items():
            classes.setdefault(name, info)
        for name, values in harvest.choices.items():
            aliases.setdefault(name, values)
        for group, found in harvest.keys.items():
            keys.setdefault(group, set()).update(found)
    wanted: dict[str, object] = {}
    for name in spec.classes:
        if name in classes:
            wanted[name] = classes[name].resolve(classes, aliases, spec.extends)
    if not wanted:
        raise SystemExit(f"{source.label}: none of {', '.join(spec.classes)} found")
    return {
        "framework": spec.name,
        "version": version,
        "source": {"repo": spec.repo, "ref": source.label, "tag": _tag(spec, version)},
        "files": files,
        "generated_by": "scripts/snapshot_schemas.py (static ast reading, nothing imported)",
        "classes": wanted,
        "key_sets": {group: sorted(found) for group, found in sorted(keys.items())},
    }


def _tag(spec: Spec, version: str) -> str:
    return spec.tag_format.format(version=version)


def _version_of(label: str) -> str:
    match = re.search(r"-(\d+(?:\.\d+)+(?:\.post\d+)?)-", label)
    if match:
        return match.group(1)
    return label.removeprefix("v")


def write(spec: Spec, source: Source, version: str, out_dir: Path) -> Path:
    data = snapshot(spec, source, version)
    target = out_dir / spec.name / f"{version}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("framework", choices=sorted(SPECS))
    parser.add_argument("--git-dir", help="a bare git directory (read with git show TAG:PATH)")
    parser.add_argument("--tags", nargs="*", default=[], help="release tags to read")
    parser.add_argument("--wheel", nargs="*", default=[], help="wheels from pip download")
    parser.add_argument("--source", help="an unpacked source tree (with --version)")
    parser.add_argument("--version", help="the version of --source")
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    args = parser.parse_args(argv)
    spec = SPECS[args.framework]
    jobs: list[tuple[Source, str]] = []
    if args.git_dir:
        jobs += [(GitSource(args.git_dir, tag), _version_of(tag)) for tag in args.tags]
    jobs += [(WheelSource(w, spec.wheel_prefix), _version_of(Path(w).name)) for w in args.wheel]
    if args.source:
        if not args.version:
            parser.error("--source needs --version")
        jobs.append((TreeSource(args.source), args.version))
    if not jobs:
        parser.error("give --git-dir with --tags, --wheel, or --source")
    for source, version in jobs:
        print(write(spec, source, version, args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
