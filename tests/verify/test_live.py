"""The installed framework, read live, when it is the version checked."""

from __future__ import annotations

import pytest

from trainwreck.verify import live, schema_for


def test_installed_transformers_is_read_from_its_dataclass() -> None:
    version = live.installed_version("transformers")
    if version is None:
        pytest.skip("transformers is not installed")
    schema = schema_for("transformers", {"transformers": version}, use_live=True)
    assert schema.version == version
    fields = schema.classes["TrainingArguments"].fields
    assert "output_dir" in fields and fields["learning_rate"].default == 5e-05
    assert schema.origin.startswith("installed") or version in schema.origin


def test_missing_framework_gives_none() -> None:
    assert live.live_classes("vllm") is None or live.installed_version("vllm") is not None
