"""Model FLOPs utilisation from the throughput a real log prints (analyzers/mfu.py).

The Megatron fixtures are copied from a public issue (fixtures/mfu/SOURCES.md); the HF
Trainer logs were written by running fixtures/mfu/hf_trainer_tokens.py here, on the CPU.
Expected numbers are recomputed from the fixtures' own lines and, for the parameter count,
from the model transformers builds from the same config.json.
"""

from __future__ import annotations

import re
import statistics
from pathlib import Path

from transformers import GPT2Config, GPT2LMHeadModel

from trainwreck.analyzers.mfu import LOW_MFU
from trainwreck.evidence.logs import HEAD_LINES, TAIL_LINES
from trainwreck.memory.gpus import resolve_gpu
from trainwreck.model import ArithmeticLine, Finding
from trainwreck.pipeline import examine

FIXTURES = Path(__file__).parent / "fixtures" / "mfu"
START = FIXTURES / "megatron_mixtral_h100_start.log"
LATER = FIXTURES / "megatron_mixtral_h100_later.log"
TOKENS = FIXTURES / "hf_trainer_tokens.log"
SAMPLES = FIXTURES / "hf_trainer_samples.log"
CONFIG = FIXTURES / "hf_trainer_tokens.config.json"
# the title of https://github.com/NVIDIA/Megatron-LM/issues/756, the fixtures' source
TITLE = "Training Mixtral 8x7B on 16 x H100 only achieves low throughput of 130 TFLOPS"


def _mfu(*paths: Path, symptoms: str | None = None, config: Path | None = None) -> list[Finding]:
    _, report = examine(
        [str(path) for path in paths],
        symptoms=symptoms,
        model_config_files=[str(config)] if config else (),
    )
    return [finding for finding in report.findings if finding.id == "throughput.mfu"]


def _printed(path: Path, pattern: str) -> list[float]:
    return [float(found) for found in re.findall(pattern, path.read_text(encoding="utf-8"))]


def _megatron_median(path: Path) -> float:
    return statistics.median(_printed(path, r"\(TFLOP/s/GPU\): ([\d.]+)"))


def _last_rate(path: Path, key: str) -> float:
    return _printed(path, rf"'{key}': '([\d.e+]+)'")[-1]


def _lines(finding: Finding) -> dict[str, ArithmeticLine]:
    assert finding.arithmetic is not None
    return {line.label.split(" (")[0]: line for line in finding.arithmetic.lines}


def _line(finding: Finding, label: str) -> float | int | str:
    return _lines(finding)[label].value


def test_megatron_tflops_below_half_the_published_mfu_fires_with_the_h100_peak() -> None:
    (finding,) = _mfu(START, symptoms=TITLE)
    h100 = resolve_gpu("H100")
    assert h100 is not None
    peak = h100.peak_tflops("bf16")
    assert peak is not None
    expected = _megatron_median(START) / peak
    assert expected < LOW_MFU
    assert finding.values["mfu"] == round(expected, 5)
    assert finding.values["gpu"] == h100.name
    lines = _lines(finding)
    assert lines["TFLOP/s per GPU"].source.startswith(f"{START}:")
    assert "[assumed] bf16" in lines["peak bf16 TFLOP/s"].formula
    assert "symptoms: '16 x H100'" in lines["peak bf16 TFLOP/s"].formula
    assert finding.evidence[0].line is not None


def test_megatron_throughput_above_the_line_is_quiet_and_a_faster_gpu_makes_it_fire() -> None:
    """The same real lines on either side of LOW_MFU: ~239 TFLOP/s is over a fifth of an
    H100's 989.5 but a tenth of a B200's 2250."""
    median = _megatron_median(LATER)
    h100, b200 = resolve_gpu("H100"), resolve_gpu("B200")
    assert h100 is not None and b200 is not None
    assert median / (h100.peak_tflops("bf16") or 0) >= LOW_MFU
    assert _mfu(LATER, symptoms=TITLE) == []
    (finding,) = _mfu(LATER, symptoms="Mixtral 8x7B on 16 x B200 is slow")
    assert finding.values["mfu"] == round(median / (b200.peak_tflops("bf16") or 0), 5)


def _per_token() -> int:
    """6N + 12 L (H Q) T for the fixture's model, N counted by transformers itself."""
    config = GPT2Config.from_json_file(str(CONFIG))
    parameters = GPT2LMHeadModel(config).num_parameters()
    seq_len = 64  # what the script prints (block_size=64)
    return 6 * parameters + 12 * config.n_layer * config.n_embd * seq_len


def test_trainer_tokens_per_second_times_6n_plus_attention_flops() -> None:
    (finding,) = _mfu(TOKENS, symptoms="trained on one A100-80GB", config=CONFIG)
    config = GPT2Config.from_json_file(str(CONFIG))
    assert _line(finding, "parameters N") == GPT2LMHeadModel(config).num_parameters()
    assert _line(finding, "FLOPs per trained token") == _per_token()
    tokens = _last_rate(TOKENS, "train_tokens_per_second")
    a100 = resolve_gpu("A100-80GB")
    assert a100 is not None
    peak = a100.peak_tflops("bf16") or 0
    assert finding.values["mfu"] == round(tokens * _per_token() / 1e12 / peak, 5)
    assert _line(finding, "GPUs") == 1


def test_trainer_rates_cover_all_gpus_so_they_are_divided_by_the_count() -> None:
    (finding,) = _mfu(TOKENS, symptoms="trained on 2 x A100-80GB", config=CONFIG)
    tokens = _last_rate(TOKENS, "train_tokens_per_second")
    assert _line(finding, "GPUs") == 2
    assert _line(finding, "achieved per GPU") == round(tokens / 2 * _per_token() / 1e12, 3)


def test_trainer_samples_per_second_are_counted_at_the_sequence_length() -> None:
    (finding,) = _mfu(SAMPLES, symptoms="trained on one A100-80GB", config=CONFIG)
    samples = _last_rate(SAMPLES, "train_samples_per_second")
    assert finding.values["rate"] == "samples"
    assert _line(finding, "tokens/s, all GPUs") == round(samples * 64, 1)


def test_quiet_without_a_gpu_without_a_model_size_and_without_a_rate() -> None:
    assert _mfu(TOKENS, config=CONFIG) == []  # the CPU run names no GPU
    assert _mfu(TOKENS, symptoms="trained on one A100-80GB") == []  # no config.json: no N
    no_rate = FIXTURES.parent / "frozen_no_param_count.log"  # a real loss log, no rate
    assert _mfu(no_rate, symptoms="trained on one A100-80GB", config=CONFIG) == []


def test_rate_lines_deep_in_a_long_log_are_kept(tmp_path: Path) -> None:
    filler = [f"step {n}: nothing of note" for n in range(HEAD_LINES + TAIL_LINES + 500)]
    middle = len(filler) // 2
    lines = [*filler[:middle], *START.read_text(encoding="utf-8").splitlines(), *filler[middle:]]
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (finding,) = _mfu(log, symptoms=TITLE)
    assert finding.values["achieved_tflops_per_gpu"] == round(_megatron_median(START), 3)
