"""Known bugs: knowledge-base pages whose `affected` range holds an installed version.

The ranking engine already boosts a page that the logs match when the version
is in range; this reports in-range bugs even when the logs show only a
symptom, or nothing. Only ranges with a `fixed_in` release count: a range
without one describes a behaviour of a whole release line, not a bug that an
upgrade removes.
"""

from __future__ import annotations

from dataclasses import dataclass

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from trainwreck.env import matrix
from trainwreck.env.model import Environment, normalise
from trainwreck.kb import KnowledgeBase


@dataclass(frozen=True)
class KnownBug:
    page: str
    title: str
    package: str
    installed: str
    specifier: str
    fixed_in: str
    url: str | None
    detail: str

    @property
    def message(self) -> str:
        return (
            f"You run {self.package} {self.installed}; [kb:{self.page}] ({self.title}) affects "
            f"{self.package}{self.specifier}, fixed in {self.fixed_in}."
        )


def known_bugs(env: Environment, kb: KnowledgeBase) -> list[KnownBug]:
    """Every fixed bug whose affected range holds the installed version."""
    found: list[KnownBug] = []
    for pattern in kb.patterns:
        for affected in pattern.affected:
            if not affected.fixed_in:
                continue
            version = env.version(normalise(affected.package))
            parsed = matrix.version_of(version)
            try:
                inside = parsed is not None and SpecifierSet(affected.specifier).contains(
                    parsed, True
                )
            except InvalidSpecifier:
                continue
            if not inside or version is None:
                continue
            citation = pattern.citations[0] if pattern.citations else None
            found.append(
                KnownBug(
                    page=pattern.id,
                    title=pattern.title,
                    package=affected.package,
                    installed=version,
                    specifier=affected.specifier,
                    fixed_in=affected.fixed_in,
                    url=citation.url if citation else None,
                    detail=" ".join(citation.detail.split()) if citation else "",
                )
            )
    return found
