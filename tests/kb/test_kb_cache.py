"""The on-disk memo of the validated knowledge base never serves stale or broken data."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from trainwreck import diskcache
from trainwreck.kb import PATTERNS_DIR, load_from

PAGE = PATTERNS_DIR / "oom" / "cuda-oom-capacity.yaml"


@pytest.fixture
def kb_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "patterns"
    directory.mkdir()
    shutil.copy(PAGE, directory / PAGE.name)
    return directory


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("TRAINWRECK_CACHE_DIR", str(where))
    return where


def test_edited_page_is_reloaded_not_served_from_cache(kb_dir: Path, cache: Path) -> None:
    first = load_from(kb_dir)
    assert list(cache.glob("kb-*.pickle"))
    page = kb_dir / PAGE.name
    page.write_text(page.read_text().replace(first.patterns[0].title, "Edited title"))
    second = load_from(kb_dir)
    assert second.patterns[0].title == "Edited title"
    assert second.version != first.version


def test_cached_load_equals_fresh_load(kb_dir: Path, cache: Path) -> None:
    fresh = load_from(kb_dir)
    cached = load_from(kb_dir)  # served from the pickle written by the first call
    assert cached.patterns == fresh.patterns and cached.version == fresh.version


def test_corrupt_cache_entry_is_rebuilt(kb_dir: Path, cache: Path) -> None:
    expected = load_from(kb_dir).patterns
    for entry in cache.glob("kb-*.pickle"):
        entry.write_bytes(b"\x80\x05 truncated")
    assert load_from(kb_dir).patterns == expected


def test_cache_can_be_turned_off(
    kb_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TRAINWRECK_CACHE_DIR", "off")
    assert diskcache.cache_dir() is None
    assert load_from(kb_dir).patterns[0].id == PAGE.stem


def test_unwritable_cache_still_loads(
    kb_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("TRAINWRECK_CACHE_DIR", str(blocker / "cache"))
    assert load_from(kb_dir).patterns[0].id == PAGE.stem
