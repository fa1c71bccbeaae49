"""Each audit rule catches its defect planted into a real report, and passes the report clean.

The reports are the pipeline's on real cases (tests/cases); each defect is one
observed in issue 18, put back by changing one field of the Diagnosis or one line
of the Markdown.
"""

from __future__ import annotations

import pytest
from audit_corpus import case_report

from trainwreck.model import Change, ConfigBlock, Diagnosis, Fix, Hypothesis
from trainwreck.report import render
from trainwreck.report.audit import audit

WORKERS = "repro-dataloader-too-many-workers"  # num_workers 6 -> 2, pytorch only
OOM_BUDGET = "alpaca-llama13b-fsdp-a100-86"  # 115.8 GiB of 79.18; fits with checkpointing + 8-bit
TIMEOUT = "automodel-ckpt-barrier-timeout-1038"  # the collective timed out after 60,000 ms
SCHEDULE = "repro-divergence-steplr-per-batch"  # the run ends at step 96
EXAMPLE = "llamafactory-oom-13b-lora-a100-2908"  # examples/llama-lora-oom: batch 4, accumulation 4
FP16 = "sentence-transformers-mt5-fp16-nan-2703"  # fp16 overflow; the fix is bf16
CPU_RUN = "pytorch-torchvision-nms-cpu-122494"  # hardware: cpu
PYTHON_BLOCK = "repro-divergence-adam-beta2-spike"  # `TrainingArguments(adam_beta2=0.95)` block
# 112.79 GiB of 31.75; fits with checkpointing + the optimizer offloaded (a combined change)
COMBINED_FIT = "llamafactory-llama7b-zero2-v100-1221"


def rules(diagnosis: Diagnosis | None, markdown: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for finding in audit(diagnosis, markdown):
        found.setdefault(finding.rule, []).append(finding.where)
    return found


def rules_of(diagnosis: Diagnosis) -> dict[str, list[str]]:
    return rules(diagnosis, render(diagnosis, "markdown"))


def with_top(diagnosis: Diagnosis, **update: object) -> Diagnosis:
    top = diagnosis.hypotheses[0].model_copy(update=update)
    return diagnosis.model_copy(update={"hypotheses": (top, *diagnosis.hypotheses[1:])})


def with_fix(diagnosis: Diagnosis, index: int, *changes: Change, action: str = "") -> Diagnosis:
    fixes = list(diagnosis.hypotheses[0].fixes)
    fixes[index] = Fix(action=action or fixes[index].action, changes=changes)
    return with_top(diagnosis, fixes=tuple(fixes))


# ---------------------------------------------------------------- (a) ranking


def test_hypotheses_out_of_score_order_are_caught() -> None:
    diagnosis, markdown = case_report(TIMEOUT)  # 0.81, then 0.24
    assert "hypothesis-order" not in rules(diagnosis, markdown)
    first, second, *rest = diagnosis.hypotheses
    swapped = diagnosis.model_copy(update={"hypotheses": (second, first, *rest)})
    assert rules_of(swapped)["hypothesis-order"] == [f"hypotheses[1] ({first.id})"]


def test_an_alternative_without_evidence_or_class_match_is_caught() -> None:
    diagnosis, markdown = case_report(WORKERS)
    assert "alternative-unsupported" not in rules(diagnosis, markdown)
    top = diagnosis.hypotheses[0]
    stray = Hypothesis(
        id="zero3-save-oom", title="ZeRO-3 save OOM", category="oom", root_cause="r",
        mechanism="m", confidence="low", score=0.1, evidence=(),
    )  # fmt: skip
    planted = diagnosis.model_copy(update={"hypotheses": (*diagnosis.hypotheses, stray)})
    assert rules_of(planted)["alternative-unsupported"] == [
        f"hypotheses[{len(diagnosis.hypotheses)}] (zero3-save-oom)"
    ]
    same_class = stray.model_copy(update={"category": top.category})
    kept = diagnosis.model_copy(update={"hypotheses": (*diagnosis.hypotheses, same_class)})
    assert "alternative-unsupported" not in rules_of(kept)


# ---------------------------------------------------------------- (b) goals


def test_a_memory_fix_that_misses_the_reports_own_fit_is_caught() -> None:
    diagnosis, _ = case_report(OOM_BUDGET)  # the report's fit: optimizer state offloaded
    assert "fix-misses-goal" not in rules_of(diagnosis)
    partial = Change(path="TrainingArguments.gradient_checkpointing", before=False, after=True)
    cut = Change(path="TrainingArguments.per_device_train_batch_size", before=1, after=1)
    short = with_fix(diagnosis, 0, partial, cut, action="Recompute activations.")
    found = [f for f in audit(short, "") if f.rule == "fix-misses-goal"]
    assert [(f.where, "offload_optimizer unchanged" in f.why) for f in found] == [
        ("hypotheses[0].fixes[0]", True)
    ]


def test_a_fix_that_makes_every_change_of_a_combined_fit_reaches_it() -> None:
    diagnosis, _ = case_report(COMBINED_FIT)
    assert str(diagnosis.hypotheses[0].values["fitting_change"]).startswith("combined:")
    assert "fix-misses-goal" not in rules_of(diagnosis)
    checkpointing, offload = diagnosis.hypotheses[0].fixes[0].changes
    assert offload.path == "ds_config.zero_optimization.offload_optimizer.device"
    short = with_fix(diagnosis, 0, checkpointing, action="Recompute activations.")
    found = [f.why for f in audit(short, "") if f.rule == "fix-misses-goal"]
    assert len(found) == 1 and found[0].endswith("leaves offload_optimizer unchanged")


def test_a_table_computed_for_the_fix_that_does_not_fit_is_caught() -> None:
    diagnosis, _ = case_report(OOM_BUDGET)
    budget = next(t for t in diagnosis.arithmetic if t.title == "Training memory per GPU")
    assert "does NOT fit" in budget.result
    as_fix = budget.model_copy(update={"title": "Training memory per GPU with fix 1"})
    planted = diagnosis.model_copy(update={"arithmetic": (*diagnosis.arithmetic, as_fix)})
    assert "arithmetic 'Training memory per GPU with fix 1'" in rules_of(planted)["fix-misses-goal"]


@pytest.mark.parametrize(("after", "caught"), [(59, True), (60, True), (61, False), (7200, False)])
def test_a_timeout_fix_must_exceed_the_timeout_that_fired(after: int, caught: bool) -> None:
    diagnosis, _ = case_report(TIMEOUT)  # Timeout(ms)=60000
    change = Change(path="TrainingArguments.ddp_timeout", before=60, after=after)
    planted = with_fix(diagnosis, 1, change)
    assert ("fix-misses-goal" in rules_of(planted)) is caught


@pytest.mark.parametrize(("after", "caught"), [(95, True), (96, False), (200, False)])
def test_a_schedule_shorter_than_the_run_is_caught(after: int, caught: bool) -> None:
    diagnosis, markdown = case_report(SCHEDULE)  # run end: step 96
    assert "fix-misses-goal" not in rules(diagnosis, markdown)
    planted = with_fix(diagnosis, 0, Change(path="TrainingArguments.max_steps", after=after))
    assert ("fix-misses-goal" in rules_of(planted)) is caught


# ---------------------------------------------------------------- (c) effective batch


BATCH = "TrainingArguments.per_device_train_batch_size"
ACCUMULATION = "TrainingArguments.gradient_accumulation_steps"


def test_the_bundled_examples_batch_cut_that_drops_the_effective_batch_is_caught() -> None:
    diagnosis, markdown = case_report(EXAMPLE)  # today: the cut raises accumulation with it
    assert "batch-cut-effective-batch" not in rules(diagnosis, markdown)
    old = with_fix(diagnosis, 0, Change(path=BATCH, before=4, after=1), action="Lower the batch.")
    assert rules_of(old)["batch-cut-effective-batch"] == [  # the old fix: accumulation left at 4
        f"hypotheses[0].fixes[0].changes[0] ({BATCH})"
    ]


@pytest.mark.parametrize(("accumulation", "caught"), [(8, True), (16, False), (32, True)])
def test_a_batch_cut_must_multiply_accumulation_by_its_factor(
    accumulation: int, caught: bool
) -> None:
    diagnosis, _ = case_report(EXAMPLE)
    cut = Change(path=BATCH, before=4, after=1)
    planted = with_fix(diagnosis, 0, cut, Change(path=ACCUMULATION, before=4, after=accumulation))
    assert ("batch-cut-effective-batch" in rules_of(planted)) is caught


def test_a_batch_cut_that_says_the_effective_batch_changes_passes() -> None:
    diagnosis, _ = case_report(EXAMPLE)
    said = "Lower the micro-batch; the effective batch drops from 16 to 4, so retune the LR."
    planted = with_fix(diagnosis, 0, Change(path=BATCH, before=4, after=1), action=said)
    assert "batch-cut-effective-batch" not in rules_of(planted)


# ---------------------------------------------------------------- (d) before values


def test_a_before_value_that_differs_from_the_evidence_is_caught() -> None:
    diagnosis, markdown = case_report(TIMEOUT)  # today: the before value is the 60 s that fired
    assert "before-differs" not in rules(diagnosis, markdown)
    old = Change(path="TrainingArguments.ddp_timeout", before=1800, after=7200)
    assert rules_of(with_fix(diagnosis, 1, old))[
        "before-differs"
    ] == [  # the old fix, beside 60,000 ms
        "hypotheses[0].fixes[1].changes[0] (TrainingArguments.ddp_timeout)"
    ]
    read_right = Change(path="TrainingArguments.ddp_timeout", before=60, after=600)
    read = with_fix(diagnosis, 1, read_right)
    assert "before-differs" not in rules_of(read)


def test_a_before_value_that_differs_from_the_setup_is_caught() -> None:
    diagnosis, _ = case_report(EXAMPLE)  # setup: batch 4, accumulation 4
    kept = (Change(path=BATCH, before=4, after=2), Change(path=ACCUMULATION, before=4, after=8))
    assert "before-differs" not in rules_of(with_fix(diagnosis, 0, *kept))
    wrong = (Change(path=BATCH, before=8, after=2), Change(path=ACCUMULATION, before=4, after=16))
    assert rules_of(with_fix(diagnosis, 0, *wrong))["before-differs"] == [
        f"hypotheses[0].fixes[0].changes[0] ({BATCH})"
    ]


# ---------------------------------------------------------------- (e) advice is the cause


@pytest.mark.parametrize(("after", "caught"), [("2", False), ("6", True), ("12", True)])
def test_more_workers_when_too_many_workers_is_the_cause_is_caught(
    after: str, caught: bool
) -> None:
    diagnosis, _ = case_report(WORKERS)  # num_workers 6 is larger than the CPUs allowed
    planted = with_fix(diagnosis, 0, Change(path="DataLoader.num_workers", before="6", after=after))
    assert ("advice-is-cause" in rules_of(planted)) is caught


def test_half_precision_when_fp16_overflow_is_the_cause_is_caught() -> None:
    diagnosis, markdown = case_report(FP16)
    assert "advice-is-cause" not in rules(diagnosis, markdown)
    half = Change(path="cli.vllm serve --dtype", before="auto", after="half")
    assert "advice-is-cause" in rules_of(with_fix(diagnosis, 0, half))


# ---------------------------------------------------------------- (f) blocks parse


def _plant(markdown: str, old: str, new: str) -> str:
    assert old in markdown
    return markdown.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("    adam_beta2=0.95,\n)", "    adam_beta2=0.95,\n"),  # the call is never closed
        ("```python\nTrainingArguments(", "```bash\nTrainingArguments("),  # Python in bash
        ("```python\nTrainingArguments(\n    adam_beta2=0.95,\n)", "```json\n{adam_beta2: 0.95}"),
        ("```python\nTrainingArguments(\n    adam_beta2=0.95,\n)", '```bash\n--lr "0.85`"'),
    ],
    ids=["python", "python-in-bash", "json", "stray-backtick"],
)
def test_a_block_that_does_not_parse_for_its_language_is_caught(old: str, new: str) -> None:
    diagnosis, markdown = case_report(PYTHON_BLOCK)
    assert "block-does-not-parse" not in rules(diagnosis, markdown)
    assert "block-does-not-parse" in rules(diagnosis, _plant(markdown, old, new))


def test_yaml_and_toml_blocks_are_loaded() -> None:
    bad = "```yaml\na: [1\n```\n```toml\na = \n```\n"
    good = "```yaml\na: [1]\n```\n```toml\na = 1\n```\n"
    assert len(rules(None, bad)["block-does-not-parse"]) == 2
    assert rules(None, good) == {}


# ---------------------------------------------------------------- (g) context


def test_a_framework_the_run_does_not_have_is_caught() -> None:
    diagnosis, markdown = case_report(WORKERS)  # pytorch and numpy only
    assert "framework-not-in-context" not in rules(diagnosis, markdown)
    zero3 = Change(path="ds_config.zero_optimization.stage", before=0, after=3)
    planted = with_fix(diagnosis, 1, zero3, action="Shard with ZeRO stage 3.")
    assert rules_of(planted)["framework-not-in-context"] == [
        "hypotheses[0].fixes[1].action",
        "hypotheses[0].fixes[1].changes[0]",
    ]
    brought_in = with_fix(diagnosis, 1, action="Use an 8-bit optimizer (requires bitsandbytes).")
    assert "framework-not-in-context" not in rules_of(brought_in)
    honest = with_fix(diagnosis, 1, zero3, action="Shard with ZeRO stage 3 (requires deepspeed).")
    assert "framework-not-in-context" not in rules_of(honest)


@pytest.mark.parametrize(
    "name",
    [
        "xformers-built-for-other-torch-8580",  # undefined symbol: "(flash-attn, xformers, ...)"
        "minicons-transformers5-vision2seq-94",  # import skew: "transformers / trl / peft"
        "accelerate-device-map-ddp-1368",  # device_map="auto" under "(DDP/FSDP/DeepSpeed)"
        "llamafactory-accelerate-keep-torch-compile-8451",  # "transformers (or diffusers/trl)"
        "cosmos-reason1-sm120-blackwell-57",  # "PyTorch build" in a log that says "PyTorch"
    ],
)
def test_a_generic_pages_title_names_other_frameworks_only_as_examples(name: str) -> None:
    diagnosis, markdown = case_report(name)
    found = [f.where for f in audit(diagnosis, markdown) if f.rule == "framework-not-in-context"]
    assert "hypotheses[0].title" not in found


@pytest.mark.parametrize(
    ("title", "caught"),
    [
        ("Compiled extension (flash-attn, xformers) built against another torch", True),
        ("Compiled extension (e.g. flash-attn, xformers) built against another torch", False),
        ("A flash-attn build (e.g. xformers) built against another torch", True),
    ],
)
def test_a_framework_named_only_as_an_example_passes(title: str, caught: bool) -> None:
    diagnosis, _ = case_report(WORKERS)  # pytorch and numpy only
    planted = with_top(diagnosis, title=title)
    assert (
        "hypotheses[0].title" in rules_of(planted).get("framework-not-in-context", [])
    ) is caught


def test_cuda_code_in_a_cpu_run_is_caught() -> None:
    diagnosis, markdown = case_report(CPU_RUN)
    assert diagnosis.context.hardware == "cpu"
    assert "framework-not-in-context" not in rules(diagnosis, markdown)
    autocast = ConfigBlock(format="python", text="torch.autocast(device_type='cuda')")
    planted = diagnosis.model_copy(update={"consolidated": (autocast,)})
    assert rules_of(planted)["framework-not-in-context"] == ["consolidated[0]"]


# ---------------------------------------------------------------- (h) placeholders


@pytest.mark.parametrize(
    "leftover",
    [
        "pip install torch==X.Y.*",
        "the param has a different shape (the model shape)",
        "the input has the mat1 cols columns",
        "export MODEL=<your model>",
    ],
)
def test_an_unfilled_placeholder_is_caught(leftover: str) -> None:
    diagnosis, markdown = case_report(PYTHON_BLOCK)
    assert "placeholder" not in rules(diagnosis, markdown)
    heading = "### Consolidated Config\n"
    planted = _plant(markdown, heading, f"{heading}{leftover}\n")
    assert len(rules(diagnosis, planted)["placeholder"]) == 1


@pytest.mark.parametrize(
    "prose",
    [
        "the fp32 value of that activation",
        "Can't pickle local object 'main.<locals>.<lambda>'",
        "a tensor with grad_fn=<AddBackward0>",
        "token <redacted:hf-token> in the log",
        "the labels already begin with the start token (<s>/BOS)",  # a tokenizer's own token
        "the reply spent its budget inside <think> before answering",  # a reasoning tag
        "- Ask: same? Compare your error with the thread's lines: remote=[127.0.0.1]:<port>",
    ],
)
def test_words_that_only_look_like_placeholders_pass(prose: str) -> None:
    assert "placeholder" not in rules(None, f"## Diagnosis\n\n{prose}\n")


def test_a_fill_in_before_a_threads_quoted_lines_is_still_caught() -> None:
    line = "- Ask: run <your command>? Compare your error with the thread's lines: x"
    assert len(rules(None, f"## Diagnosis\n\n{line}\n")["placeholder"]) == 1


@pytest.mark.parametrize(
    "name",
    [
        "automodel-ckpt-barrier-timeout-1038",  # py-spy dump --pid <PID>
        "coreweave-triton-key-import-64",  # triton==<the version torch requires>
        "deepseek-vl-requires-python-24",  # pip index versions <package>
        "jax-feedstock-jaxlib-too-old-81",  # jax==X, jax==<release paired with ...>
        "qwen-vl-finetune-host-oom-killed-135",  # sbatch --mem=<GB>G
        "pytorch-cyclegan-oom-other-process-962",  # CUDA_VISIBLE_DEVICES=<idle index>
        "repro-nan-fp16-vae-latents",  # NaN detected in latents: <image path>
        "peft-merge-4bit-rounding-2321",  # from_pretrained('<base>') ... '<out>'
        "vllm-bf16-v100-946",  # vllm serve <model>, the model unknown
    ],
)
def test_a_real_report_leaves_no_template_unfilled(name: str) -> None:
    diagnosis, markdown = case_report(name)
    assert [str(f) for f in audit(diagnosis, markdown) if f.rule == "placeholder"] == []


def test_a_command_takes_the_model_from_the_evidence() -> None:
    diagnosis, _ = case_report("peft-target-modules-baichuan-43")  # loads /data1/.../baichuan-7B/
    commands = [c for fix in diagnosis.hypotheses[0].fixes for c in fix.commands]
    assert any("from_pretrained('/data1/projects/baichuan-7B/'" in c for c in commands), commands


def test_user_text_quoted_as_evidence_is_not_checked_for_placeholders() -> None:
    quoted = "**Evidence:**\n\n- `train.log:3` `pip install torch==X.Y`\n\n### Fix\n"
    assert rules(None, quoted) == {}


# ---------------------------------------------------------------- (i) duplicate keys


@pytest.mark.parametrize(
    ("block", "key"),
    [
        ("```python\nTrainingArguments(\n    bf16=True,\n    bf16=False,\n)\n```", "bf16"),
        ("```bash\nexport A=1\nexport A=2\n```", "$A"),
        ("```bash\nvllm serve m --max-model-len 1 \\\n  --max_model_len 2\n```", "--max-model-len"),
        ("```yaml\na: 1\na: 2\n```", "a"),
        ("```\nds_config.bf16.enabled: true\nds_config.bf16.enabled: false\n```", "enabled"),
    ],
    ids=["python", "env", "flags", "yaml", "keys"],
)
def test_a_key_set_twice_in_a_consolidated_block_is_caught(block: str, key: str) -> None:
    diagnosis, markdown = case_report(PYTHON_BLOCK)
    assert "duplicate-key" not in rules(diagnosis, markdown)
    planted = _plant(markdown, "### Arithmetic\n", f"{block}\n\n### Arithmetic\n")
    found = [f for f in audit(diagnosis, planted) if f.rule == "duplicate-key"]
    assert len(found) == 1 and key in found[0].why


def test_the_same_keyword_in_two_calls_is_not_a_duplicate() -> None:
    two_calls = "### Consolidated Config\n\n```python\nA(drop_last=True)\nB(drop_last=True)\n```\n"
    assert rules(None, two_calls) == {}


# ---------------------------------------------------------------- any answer's text


def test_without_a_diagnosis_only_the_markdown_rules_run() -> None:
    """check-answer (issue 23) audits an answer it has only the text of."""
    _, markdown = case_report(TIMEOUT)
    assert {f.rule for f in audit(None, markdown)} <= {
        "block-does-not-parse",
        "placeholder",
        "duplicate-key",
    }
