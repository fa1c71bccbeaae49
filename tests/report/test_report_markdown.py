"""The Markdown report: sections in order, every claim cited, setup echoed."""

from __future__ import annotations

import platform
import re
import shlex
import subprocess
import sys

from report_fixtures import (
    ACTIVATIONS,
    TRANSFORMERS_URL,
    empty_diagnosis,
    headings,
    oom_diagnosis,
    ungrounded_diagnosis,
    with_evidence,
)

from trainwreck.model import Setup
from trainwreck.report import to_markdown
from trainwreck.report.values import version_command

SECTIONS = [
    "## Diagnosis",
    "### Fix",
    "### Verify",
    "### Consolidated Config",
    "### Arithmetic",
    "### If That Doesn't Work",
    "### Prevention",
]
DIAGNOSIS_PARTS = [
    "**Root cause:**",
    "**Confidence:**",
    "**Version:**",
    "**Evidence:**",
    "**User setup:**",
]


def line_with(markdown: str, needle: str) -> str:
    matches = [line for line in markdown.splitlines() if needle in line]
    assert len(matches) == 1, (needle, matches)
    return matches[0]


def test_sections_come_in_order() -> None:
    found = headings(to_markdown(oom_diagnosis()))
    assert [h for h in found if h in SECTIONS] == SECTIONS
    assert found == [*SECTIONS, "### Warnings"]


def test_diagnosis_parts_come_in_order() -> None:
    markdown = to_markdown(oom_diagnosis())
    positions = [markdown.index(part) for part in DIAGNOSIS_PARTS]
    assert positions == sorted(positions)
    assert markdown.index("**User setup:**") < markdown.index("### Fix")


def test_root_cause_and_fixes_carry_their_citations() -> None:
    markdown = to_markdown(oom_diagnosis())
    root = line_with(markdown, "**Root cause:**")
    assert root.endswith(f"[kb:cuda-oom-activations] [source]({TRANSFORMERS_URL})")
    fixes = [
        line for line in markdown.splitlines() if re.match(r"\d+\. Turn on|\d+\. Let the", line)
    ]
    assert len(fixes) == 2
    assert all("[kb:cuda-oom-activations]" in line for line in fixes)


def test_confidence_says_why() -> None:
    line = line_with(to_markdown(oom_diagnosis()), "**Confidence:**")
    assert line == f"**Confidence:** High (score 0.91): {ACTIVATIONS.why_confidence}"


def test_version_names_exact_framework_versions() -> None:
    line = line_with(to_markdown(oom_diagnosis()), "**Version:**")
    assert line == (
        "**Version:** bitsandbytes `0.43.3`, peft `0.12.0`, torch `2.4.0`, transformers `4.44.2`"
    )


def test_unknown_versions_come_with_the_command_that_prints_them() -> None:
    diagnosis = oom_diagnosis()
    partial = diagnosis.setup.model_copy(update={"frameworks": {"torch": "2.4.0"}})
    line = line_with(to_markdown(diagnosis.model_copy(update={"setup": partial})), "**Version:**")
    assert line == (
        "**Version:** torch `2.4.0`; transformers, peft, bitsandbytes unknown: run "
        '`python -c "import importlib.metadata as m; print({n: next((d.version for d in '
        "m.distributions(name=n)), 'not installed') for n in ['transformers', 'peft', "
        "'bitsandbytes']})\"`"
    )
    nothing = diagnosis.model_copy(update={"setup": Setup()})
    top = nothing.hypotheses[0].model_copy(update={"frameworks": ("pytorch", "transformers")})
    line = line_with(to_markdown(nothing.model_copy(update={"hypotheses": (top,)})), "**Version:**")
    assert line.startswith("**Version:** torch, transformers unknown: run ")
    assert "for n in ['torch', 'transformers']" in line


def test_the_version_command_runs_where_a_package_is_missing() -> None:
    """It imported each package, so one that was not installed stopped it (ImportError)."""
    import torch

    command = shlex.split(version_command(["torch", "no-such-distribution-xyz", "python"]))
    assert command[:2] == ["python", "-c"]
    result = subprocess.run(
        [sys.executable, *command[1:]], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert f"'torch': '{torch.__version__}'" in result.stdout
    assert "'no-such-distribution-xyz': 'not installed'" in result.stdout
    assert platform.python_version() in result.stdout


def test_evidence_quotes_file_line_and_text() -> None:
    markdown = to_markdown(oom_diagnosis())
    assert (
        "- `train.log:1184` `torch.OutOfMemoryError: CUDA out of memory. Tried to allocate"
        in markdown
    )
    assert "311.52 MiB is reserved by PyTorch but unallocated.`" in markdown


def test_evidence_with_backticks_stays_one_code_span() -> None:
    markdown = to_markdown(with_evidence(oom_diagnosis(), ["KeyError: `input_ids` missing"]))
    assert "- `train.log:1` ``KeyError: `input_ids` missing``" in markdown


def test_user_setup_is_echoed() -> None:
    markdown = to_markdown(oom_diagnosis())
    for item in [
        "- Model: `meta-llama/Meta-Llama-3-8B`",
        "- GPUs: `1 x NVIDIA A10G (22.19 GiB)`",
        "- Batch size: `8 (gradient accumulation 2)`",
        "- Sequence length: `4096`",
        "- Precision: `bf16 compute, 4-bit NF4 weights (QLoRA)`",
        "- Distributed: `single GPU`",
    ]:
        assert item in markdown


def test_changes_show_before_after_and_flag_unverified_keys() -> None:
    markdown = to_markdown(oom_diagnosis())
    verified = line_with(markdown, "`TrainingArguments.gradient_checkpointing`:")
    assert verified == (
        "   - `TrainingArguments.gradient_checkpointing`: `false` → `true`: "
        "recompute activations in backward"
    )
    unverified = line_with(markdown, "`--max_seq_length`: ")
    assert unverified.endswith("halves activation memory [unverified key]")
    flagged = [line for line in markdown.splitlines() if "[unverified key]" in line]
    assert len(flagged) == 1  # an alternative fix's change: the consolidated config is fix 1


def test_commands_are_in_code_blocks() -> None:
    markdown = to_markdown(oom_diagnosis())
    assert (
        "   ```bash\n   nvidia-smi --query-gpu=memory.used,memory.total --format=csv\n   ```"
        in markdown
    )


def test_consolidated_config_is_the_first_fix_in_the_users_format() -> None:
    markdown = to_markdown(oom_diagnosis())
    section = markdown.split("### Consolidated Config\n\n", 1)[1].split("\n### ", 1)[0]
    assert section.splitlines()[:9] == [
        "In your code:",
        "",
        "```python",
        "TrainingArguments(",
        "    gradient_checkpointing=True,",
        "    per_device_train_batch_size=4,",
        "    gradient_accumulation_steps=4,",
        ")",
        "```",
    ]
    assert "PYTORCH_CUDA_ALLOC_CONF" not in section  # fix 2 is an alternative, not merged in


def test_no_consolidated_config_without_changes() -> None:
    diagnosis = oom_diagnosis()
    top = diagnosis.hypotheses[0].model_copy(update={"fixes": ()})
    markdown = to_markdown(diagnosis.model_copy(update={"hypotheses": (top,)}))
    assert "### Consolidated Config" not in markdown
    assert "### Fix" in markdown


def test_arithmetic_table_shows_formula_value_unit_and_source() -> None:
    markdown = to_markdown(oom_diagnosis())
    assert "| Step | Formula | Value | Source |" in markdown
    assert (
        "| logits in fp32 | `8 x 4096 x 128256 x 4 B / 2^30` | 15.66 GiB | `computed` |" in markdown
    )
    assert "| vocabulary size | `vocab_size` | 128,256 | `config.json:vocab_size` |" in markdown


def test_alternatives_show_confidence_score_root_cause_and_check_cost() -> None:
    markdown = to_markdown(oom_diagnosis())
    assert line_with(markdown, "**Allocator fragmentation**").startswith(
        "1. **Allocator fragmentation** (Medium confidence, score 0.38): Reserved-but-unallocated"
    )
    assert "in the OOM line (cost: seconds)" in markdown


def test_prevention_lists_guards_with_thresholds() -> None:
    markdown = to_markdown(oom_diagnosis())
    assert (
        "- Log torch.cuda.max_memory_allocated() every 50 steps "
        "(threshold: warn above 90% of device memory) [kb:cuda-oom-activations]" in markdown
    )


def test_ungrounded_hypothesis_marks_every_claim_no_kb() -> None:
    markdown = to_markdown(ungrounded_diagnosis())
    assert line_with(markdown, "**Root cause:**").endswith("[no KB]")
    assert line_with(markdown, "**Mechanism:**").endswith("[no KB]")
    assert line_with(markdown, "1. Set the evaluation batch explicitly").startswith(
        "1. Set the evaluation batch explicitly [no KB]"
    )
    body = markdown.split("### Prevention")[0]
    assert "[kb:" not in body and "[source]" not in body


def test_ungrounded_alternative_is_marked_no_kb() -> None:
    line = line_with(to_markdown(oom_diagnosis()), "**Evaluation batch larger")
    assert line.endswith("[no KB]")


def test_no_hypotheses_says_so_and_lists_inputs_and_warnings() -> None:
    markdown = to_markdown(empty_diagnosis())
    assert "No known failure pattern matched this evidence" in markdown
    assert "- `train.log (log, 412 lines)`" in markdown
    assert "- `metrics.csv (metrics)`" in markdown
    assert "- metrics.csv: not UTF-8 text, skipped" in markdown
    assert "### Fix" not in markdown and "**Root cause:**" not in markdown
