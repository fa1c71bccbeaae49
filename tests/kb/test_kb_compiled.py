"""The compiled knowledge base (kb/data/compiled.json) and the literal table are what
scripts/build_kb.py makes from the pages, and load into the same pages."""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from trainwreck import kb
from trainwreck.errors import KnowledgeBaseError
from trainwreck.kb import PATTERNS_DIR, load, load_from
from trainwreck.kb.compiled import REBUILD

ROOT = Path(__file__).resolve().parents[2]
PAGE = PATTERNS_DIR / "oom" / "cuda-oom-capacity.yaml"


def build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_kb", ROOT / "scripts" / "build_kb.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_kb"] = module
    spec.loader.exec_module(module)
    return module


def test_artifacts_are_what_the_build_script_makes_from_the_pages() -> None:
    for path, text in build_script().artifacts().items():
        assert Path(path).read_text(encoding="utf-8") == text, "run python scripts/build_kb.py"


def test_compiled_pages_equal_the_validated_yaml() -> None:
    fresh = load_from(PATTERNS_DIR)
    compiled = load()
    assert compiled.patterns == fresh.patterns
    assert (compiled.version, compiled.sources) == (fresh.version, fresh.sources)


def test_an_edited_page_is_read_from_its_yaml_by_load_from(tmp_path: Path) -> None:
    shutil.copy(PAGE, tmp_path / PAGE.name)
    first = load_from(tmp_path)
    page = tmp_path / PAGE.name
    page.write_text(page.read_text().replace(first.patterns[0].title, "Edited title"))
    second = load_from(tmp_path)
    assert second.patterns[0].title == "Edited title"
    assert second.version != first.version


def test_a_bad_regex_in_a_page_is_refused_by_the_yaml_loader(tmp_path: Path) -> None:
    text = PAGE.read_text()
    assert "excludes: []" in text
    (tmp_path / PAGE.name).write_text(text.replace("excludes: []", "excludes: ['(unclosed']"))
    with pytest.raises(KnowledgeBaseError, match="does not compile"):
        load_from(tmp_path)


def test_a_broken_artifact_is_a_knowledge_base_error_naming_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "compiled.json"
    broken.write_text('{"version": "1p-0", "sources": {}}')
    monkeypatch.setattr(kb, "COMPILED", broken)
    with pytest.raises(KnowledgeBaseError, match=re.escape(REBUILD)):
        load.__wrapped__()
