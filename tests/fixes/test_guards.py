"""Prevention guards: every template renders to compiling code, and the guards that can run
on a CPU are executed for real against planted failures (a grad-norm spike inside a real HF
Trainer, a NaN loss, a right-padded tokenizer, a collapsing GradScaler, ...)."""

from __future__ import annotations

import ast
import math
import re
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch

from trainwreck.context.frameworks import without_torch
from trainwreck.curation.cases import diagnose_case, find_cases
from trainwreck.curation.lint import MOVING_TARGET
from trainwreck.fixes.guards import TEMPLATES, render, resolve
from trainwreck.kb import load

CASES = find_cases(Path(__file__).parents[1] / "cases")
CODED = [
    (pattern.id, index, guard.code.template, dict(guard.code.params))
    for pattern in load().patterns
    for index, guard in enumerate(pattern.prevention)
    if guard.code
]


def guard(name: str, **params: Any) -> dict[str, Any]:
    """Render a template and run it, so tests use exactly the code a user would paste."""
    namespace: dict[str, Any] = {}
    exec(compile(render(name, params), name, "exec"), namespace)
    return namespace


def _placeholders(code: str) -> list[str]:
    tree = ast.parse(code)
    found = [type(node).__name__ for node in ast.walk(tree) if isinstance(node, ast.Pass)]
    found += [
        "..." for node in ast.walk(tree) if isinstance(node, ast.Constant) and node.value is ...
    ]
    found += re.findall(r"\$\{?[A-Za-z_]", code)  # a template field left unfilled
    return found + [word for word in ("TODO", "FIXME") if word in code]


@pytest.mark.parametrize(("pattern", "index", "name", "params"), CODED, ids=lambda v: str(v))
def test_every_coded_guard_compiles_without_placeholders(
    pattern: str, index: int, name: str, params: dict[str, Any]
) -> None:
    code = render(name, params)
    compile(code, f"{pattern}[{index}]", "exec")
    assert not _placeholders(code)
    values = resolve(name, params, {}).values()
    assert any(re.search(r"\d", repr(v)) for v in values), "its threshold is a visible number"


def test_each_template_is_used_and_cites_a_pinned_https_source() -> None:
    used = {name for _, _, name, _ in CODED}
    assert used == set(TEMPLATES)
    for template in TEMPLATES.values():
        assert template.source.startswith("https://"), template.name
        assert not MOVING_TARGET.search(template.source), template.source


def test_every_pattern_has_two_coded_guards() -> None:
    for pattern in load().patterns:
        assert sum(1 for g in pattern.prevention if g.code) >= 2, pattern.id


def test_evidence_fills_a_threshold_and_a_missing_value_keeps_the_default() -> None:
    params = {"time_limit_s": "{timeout_s}"}
    assert resolve("loader-smoke", params, {"timeout_s": "1,800"})["time_limit_s"] == 1800
    assert resolve("loader-smoke", params, {})["time_limit_s"] == 60
    assert "time_limit_s=1800" in render("loader-smoke", params, {"timeout_s": 1800})


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.path.name)
def test_every_real_case_carries_a_coded_guard_with_a_source(case: Any) -> None:
    """At least one: a page's second guard on the same template at another threshold is
    the same guard, shown once (issue 18), and only shown pages top it up. A run that
    shows JAX and no torch gets no torch code (its page's guards may then have none)."""
    diagnosis = diagnose_case(case)
    coded = [p for p in diagnosis.prevention if p.code]
    if without_torch(diagnosis.context.frameworks):
        assert diagnosis.prevention
        assert not [p for p in coded if "import torch" in (p.code or "")]
    else:
        assert coded
    for prevention in coded:
        assert re.search(r"\d", prevention.threshold)
        assert prevention.source and prevention.source.startswith("https://")
        compile(prevention.code or "", prevention.guard, "exec")


# --- guards executed for real -------------------------------------------------------------


class _Regression(torch.nn.Module):
    """The smallest model an HF Trainer accepts: it returns its own loss."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(4, 1)

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> dict[str, torch.Tensor]:
        return {"loss": torch.nn.functional.mse_loss(self.linear(x).squeeze(-1), y)}


def _train(callback: Any, spike_at: int | None, steps: int = 40) -> Any:
    from transformers import Trainer, TrainingArguments

    torch.manual_seed(0)
    rows = []
    for step in range(steps):
        x = torch.randn(4)
        scale = 1000.0 if step == spike_at else 1.0
        rows.append({"x": x * scale, "y": x.sum() * scale})
    args = TrainingArguments(
        output_dir="unused",
        per_device_train_batch_size=1,
        max_steps=steps,
        logging_steps=1,
        learning_rate=1e-3,
        save_strategy="no",
        report_to=[],
        use_cpu=True,
        disable_tqdm=True,
    )
    trainer = Trainer(model=_Regression(), args=args, train_dataset=rows, callbacks=[callback])
    trainer.train()
    return trainer.state


def test_grad_norm_callback_stops_a_real_trainer_at_a_planted_spike(tmp_path: Path) -> None:
    stop = guard("grad-norm-spike", factor=10.0, window=20, consecutive=1)["GradNormSpikeStop"]
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp_path)
        assert _train(stop(), spike_at=None).global_step == 40
        state = _train(stop(), spike_at=25)
    norms = [log["grad_norm"] for log in state.log_history if "grad_norm" in log]
    assert state.global_step < 40  # stopped early ...
    assert norms[-1] > 1000 * sorted(norms)[len(norms) // 2]  # ... on the planted spike


def test_finite_loss_guard_raises_after_consecutive_nans() -> None:
    check = guard("nonfinite-loss", max_consecutive=2)["FiniteLossGuard"]()
    assert check.check(torch.tensor(1.0))
    assert not check.check(torch.tensor(math.nan), batch_ids=[7])
    with pytest.raises(FloatingPointError, match=r"\[7\], \[8\]"):
        check.check(torch.tensor(math.inf), batch_ids=[8])


def test_parameter_and_batch_checks_find_a_planted_nan() -> None:
    model = torch.nn.Linear(3, 3)
    check_params = guard("nonfinite-params", first_steps=10)["check_finite_parameters"]
    check_params(model, step=0)
    with torch.no_grad():
        model.weight[1, 2] = math.nan
    with pytest.raises(FloatingPointError, match="weight"):
        check_params(model, step=1)
    check_params(model, step=10)  # past the first steps: not checked any more
    check_batch = guard("nonfinite-batch", max_nonfinite=0)["check_finite_batch"]
    check_batch({"x": torch.ones(2), "ids": torch.tensor([1, 2])})
    with pytest.raises(ValueError, match="'x'"):
        check_batch({"x": torch.tensor([1.0, math.inf])})


def test_activation_hooks_fire_on_an_overflowing_layer() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
    install = guard("activation-bound", max_abs=100.0, steps=5)["install_activation_guard"]
    handles = install(model)
    model(torch.ones(1, 2))
    with pytest.raises(FloatingPointError, match="Linear"):
        model(torch.full((1, 2), 1e6))
    for handle in handles:
        handle.remove()


def test_loss_scale_guard_fails_when_a_real_grad_scaler_collapses() -> None:
    param = torch.nn.Parameter(torch.ones(2))
    optimizer = torch.optim.SGD([param], lr=0.1)
    scaler = torch.amp.GradScaler("cpu", init_scale=256.0)
    watch = guard(
        "loss-scale-floor", min_scale=128.0, max_skipped_fraction=0.5, window=4, warmup_steps=0
    )["LossScaleGuard"](scaler)
    with pytest.raises(FloatingPointError, match="collapsed"):
        for _ in range(3):
            optimizer.zero_grad()
            scaler.scale((param * math.inf).sum()).backward()  # every step overflows
            before = scaler.get_scale()
            scaler.step(optimizer)
            scaler.update()
            watch.after_update(before)
    assert scaler.get_scale() < 128.0


def _tokenizer(padding_side: str) -> Any:
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace
    from transformers import PreTrainedTokenizerFast

    vocab = {"<pad>": 0, "<eos>": 1, "<unk>": 2, "hello": 3, "world": 4}
    core = Tokenizer(WordLevel(vocab, unk_token="<unk>"))
    core.pre_tokenizer = Whitespace()
    return PreTrainedTokenizerFast(
        tokenizer_object=core, pad_token="<pad>", eos_token="<eos>", padding_side=padding_side
    )


def test_padding_side_assertion_fires_on_a_right_padded_tokenizer() -> None:
    check = guard("generation-inputs", max_right_padded_batch=1)["check_generation_inputs"]
    prompts = ["hello", "hello world world"]
    right = _tokenizer("right")
    with pytest.raises(ValueError, match="padding_side='right'"):
        check(right, right(prompts, return_tensors="pt", padding=True))
    left = _tokenizer("left")
    check(left, left(prompts, return_tensors="pt", padding=True))
    check(right, right(prompts[:1], return_tensors="pt"))  # one prompt needs no padding
    specials = guard(
        "tokenizer-specials",
        require_chat_template=True,
        require_distinct_pad=True,
        max_violations=0,
    )["check_tokenizer"]
    with pytest.raises(ValueError, match="chat_template"):
        specials(left)


def test_label_mask_catches_unsupervised_rows_and_scored_pads() -> None:
    check = guard("label-mask", ignore_index=-100, max_empty_fraction=0.0, max_pad_fraction=0.05)[
        "check_labels"
    ]
    check([[5, 6, -100], [7, -100, -100]], pad_token_id=0)
    with pytest.raises(ValueError, match="no supervised token"):
        check([[5, 6, -100], [-100, -100, -100]])
    with pytest.raises(ValueError, match="pad id"):
        check([[5, 0, 0], [7, 0, 0]], pad_token_id=0)


def test_trainable_and_gradient_checks_on_a_frozen_model() -> None:
    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Linear(2, 1))
    trainable = guard("trainable-params", max_fraction=0.5)["check_trainable"]
    with pytest.raises(RuntimeError, match="more than 50%"):
        trainable(model)
    model[0].requires_grad_(False)
    assert trainable(model) == 3
    model[1].requires_grad_(False)
    with pytest.raises(RuntimeError, match="no trainable"):
        trainable(model)
    gradients = guard("grads-present", max_missing=0)["check_gradients"]
    model[1].requires_grad_(True)
    unused = torch.nn.Linear(2, 2)  # trainable but outside the graph
    both = torch.nn.ModuleDict({"used": model, "unused": unused})
    model(torch.ones(1, 2)).sum().backward()
    with pytest.raises(RuntimeError, match=r"unused\.weight"):
        gradients(both)


def test_collectives_run_on_a_real_gloo_group() -> None:
    import torch.distributed as dist

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {"MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port), "RANK": "0", "WORLD_SIZE": "1"}
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        guard("collective-probe", timeout_s=30, probe_limit_s=30)["init_with_probe"]()
        try:
            agree = guard("rank-agreement", max_difference=0)["check_ranks_agree"]
            assert agree("steps per epoch", 12) == [12]
        finally:
            dist.destroy_process_group()


def test_tcp_probe_against_a_real_listener() -> None:
    probe = guard("tcp-probe", timeout_s=2)["probe_rendezvous"]
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        assert probe("127.0.0.1", port)
    with pytest.raises(RuntimeError, match=f"127.0.0.1:{port}"):
        probe("127.0.0.1", port)


def test_environment_guards_in_this_environment(tmp_path: Path) -> None:
    versions = guard("version-pin", requirements=["torch >=1.0", "python >=3.0"])
    versions["check_versions"]()
    with pytest.raises(RuntimeError, match=r"torch \S+ is outside <1\.0"):
        guard("version-pin", requirements=["torch <1.0"])["check_versions"]()
    imports = guard("import-smoke", modules=["json", "no_such_module_here"], max_failures=0)
    with pytest.raises(RuntimeError, match="no_such_module_here"):
        imports["smoke_import"]()
    scan = guard(
        "command-scan",
        command=[sys.executable, "-c", "print('x requires torch==1.0')"],
        pattern="requires torch==",
        max_matches=0,
    )
    with pytest.raises(RuntimeError, match="1 lines match"):
        scan["check_command"]()
    (tmp_path / "train.py").write_text(
        "state = torch.load(path)\nok = torch.load(p, weights_only=True)\n"
    )
    lint = guard(
        "source-scan", pattern=r"torch\.load\((?!.*weights_only)", max_hits=0, glob="**/*.py"
    )
    with pytest.raises(AssertionError, match=r"train\.py:1"):
        lint["scan_sources"](tmp_path)


def test_warning_guard_turns_a_warning_into_a_failure() -> None:
    import warnings

    fail_on = guard("warning-as-error", pattern="requires_grad", max_hits=0)["fail_on_warning"]
    with pytest.raises(RuntimeError, match="1 warnings"), fail_on():
        warnings.warn("None of the inputs have requires_grad=True", UserWarning, stacklevel=1)
    with fail_on():
        warnings.warn("something else", UserWarning, stacklevel=1)


def test_data_wait_monitor_flags_a_slow_loader() -> None:
    import time

    def slow() -> Any:
        for i in range(6):
            time.sleep(0.02)
            yield i

    monitor = guard("data-wait", max_wait_fraction=0.2, window=4, max_single_wait_s=5)
    with pytest.raises(RuntimeError, match="data wait"):
        for _ in monitor["DataWaitMonitor"](slow()):
            pass


def test_divisible_and_config_bounds_guards() -> None:
    divisible: Callable[..., None] = guard("divisible", max_remainder=0, min_quotient=1)[
        "check_divisible"
    ]
    divisible([("heads / tp", 32, 4)])
    with pytest.raises(ValueError, match="28 / 8 leaves 4"):
        divisible([("heads / tp", 28, 8)])
    bounds = guard("config-bounds", key="gradient_clipping", low=1e-06, high=None)["check_config"]
    assert bounds({"gradient_clipping": 1.0}) == 1.0
    with pytest.raises(ValueError, match="outside"):
        bounds({"gradient_clipping": 0.0})


def test_guard_code_runs_as_a_standalone_script(tmp_path: Path) -> None:
    """Paste-ready means it runs on its own: imports included, nothing undefined."""
    script = tmp_path / "guard.py"
    script.write_text(
        render("nonfinite-loss", {"max_consecutive": 1}) + "\n"
        "import math\nFiniteLossGuard().check(math.nan)\n"
    )
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 1
    assert "FloatingPointError: 1 non-finite losses in a row" in result.stderr
