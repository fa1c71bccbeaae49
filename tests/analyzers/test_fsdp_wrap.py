"""The FSDP wrap class a run's config names (analyzers/fsdp_wrap.py)."""

from __future__ import annotations

from pathlib import Path

from trainwreck.analyzers import fsdp_wrap
from trainwreck.evidence.collect import collect

CASE = (
    Path(__file__).parents[2]
    / "benchmarks/first_sight/batch-1/accelerate-fsdp-wrap-cls-xlmroberta-66/config.yaml"
)


def test_the_accelerate_config_of_a_real_case_names_its_wrap_class() -> None:
    [finding] = fsdp_wrap.analyze(collect([str(CASE)]))
    assert finding.id == "config.fsdp_wrap_class"
    assert finding.values["classes"] == "BertLayer"
    assert finding.values["key"] == "fsdp_config.fsdp_transformer_layer_cls_to_wrap"


def test_a_trainer_fsdp_config_list_is_joined(tmp_path: Path) -> None:
    config = tmp_path / "args.json"
    config.write_text(
        '{"fsdp": "full_shard auto_wrap", "fsdp_config": '
        '{"transformer_layer_cls_to_wrap": ["LlamaDecoderLayer", "LlamaMLP"]}}',
        encoding="utf-8",
    )
    [finding] = fsdp_wrap.analyze(collect([str(config)]))
    assert finding.values["classes"] == "LlamaDecoderLayer,LlamaMLP"


def test_an_fsdp_config_without_a_wrap_class_says_nothing(tmp_path: Path) -> None:
    config = tmp_path / "fsdp.yaml"
    config.write_text(
        "distributed_type: FSDP\nfsdp_config:\n  fsdp_auto_wrap_policy: SIZE_BASED_WRAP\n"
        "  fsdp_transformer_layer_cls_to_wrap: ''\n",
        encoding="utf-8",
    )
    assert fsdp_wrap.analyze(collect([str(config)])) == []


def test_a_launch_command_keeps_no_shell_quotes_in_the_class_name() -> None:
    command = Path(__file__).parents[2] / "tests/cases/alpaca-llama13b-fsdp-a100-86/command.txt"
    [finding] = fsdp_wrap.analyze(collect([str(command)]))
    assert finding.values["classes"] == "LlamaDecoderLayer"
