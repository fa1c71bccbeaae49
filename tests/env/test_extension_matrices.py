"""The extension matrices: triton, protobuf, HF minimums, flash-attn / bitsandbytes CUDA, nvcc.

Each listing below reproduces the versions a public report showed (named per test);
every real listing in the fixtures and case folders must stay free of these alarms.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.env import Environment, check, matrix, merge, read_listing

FIXTURES = Path(__file__).parent / "fixtures"
CASES = Path(__file__).parents[1] / "cases"
NEW_KINDS = {"cuda", "toolkit"}
NEW_FILES = ("triton.yaml", "protobuf.yaml", "hf_minimums.yaml", "extensions.yaml")


def _new_rule_conflicts(text: str) -> list[str]:
    """Conflicts raised by the rows of this module's data files, as `package->dependency`."""
    urls = {r.source.url for r in matrix.load().rules if _from_new_file(r.source.key)}
    return [
        f"{c.package}->{c.dependency}"
        for c in check(read_listing(text))
        if c.kind in NEW_KINDS or (c.kind == "matrix" and c.source in urls)
    ]


def _from_new_file(key: str) -> bool:
    import yaml

    return any(
        key in yaml.safe_load((matrix.DATA_DIR / name).read_text())["sources"] for name in NEW_FILES
    )


def test_torch_with_another_triton_cites_pips_own_report() -> None:
    # triton-lang/triton#3359: torch 2.2.1 next to a triton 3.0.0 built from source
    env = read_listing("torch==2.2.1\ntriton==3.0.0\nnumpy==1.26.4\n")
    (conflict,) = [c for c in check(env) if c.dependency == "triton"]
    assert conflict.requirement == "triton==2.2.0; python_version < '3.12'"
    assert conflict.source == "https://github.com/triton-lang/triton/issues/3359"
    assert conflict.commands[0] == "pip install triton==2.2.0"
    # the same pin does not apply on Python 3.12, where torch 2.2.1 declares no triton
    python = "Python version: 3.12.1 (main) [GCC 11.2.0] (64-bit runtime)"
    py312 = merge([env, read_listing(python)])
    assert [c for c in check(py312) if c.dependency == "triton"] == []
    assert check(read_listing("torch==2.2.1\ntriton==2.2.0\n")) == []


def test_tensorboard_next_to_protobuf_4_and_5() -> None:
    # tensorflow/tensorboard#5703 (protobuf 4.21 against 2.9) and #6808 (5.26 against 2.16)
    (old,) = check(read_listing("tensorboard==2.9.1\nprotobuf==4.21.1\n"))
    assert (old.requirement, old.installed) == ("protobuf<4", "4.21.1")
    assert old.commands == ('pip install "protobuf<4"',)
    (new,) = check(read_listing("tensorboard==2.16.2\nprotobuf==5.26.0\n"))
    assert new.source == "https://github.com/tensorflow/tensorboard/issues/6808"
    assert check(read_listing("tensorboard==2.18.0\nprotobuf==5.26.0\n")) == []


def test_transformers_needs_a_newer_accelerate_and_peft() -> None:
    conflicts = check(read_listing("transformers==4.46.3\naccelerate==0.21.0\npeft==0.4.0\n"))
    found = {c.dependency: c.requirement for c in conflicts}
    assert found == {"accelerate": "accelerate>=0.26.0", "peft": "peft>=0.5.0"}
    assert check(read_listing("transformers==4.46.3\naccelerate==0.26.0\npeft==0.13.2\n")) == []


def test_flash_attn_2_8_on_a_cuda_11_torch_is_a_warning() -> None:
    # flash-attn asks for CUDA 12.0+ from 2.7.4.post1; torch's cu118 build cannot host its wheels
    (conflict,) = check(read_listing("torch==2.4.0+cu118\nflash-attn==2.8.3\n"))
    assert (conflict.kind, conflict.severity) == ("cuda", "warning")
    assert conflict.message == (
        "flash-attn 2.8.3 supports CUDA>=12.0, but the CUDA torch was built with is 11.8."
    )
    assert check(read_listing("torch==2.4.0+cu121\nflash-attn==2.8.3\n")) == []
    assert check(read_listing("torch==2.4.0+cu118\nflash-attn==2.6.3\n")) == []


def test_flash_attn_source_build_against_an_old_nvcc() -> None:
    # Dao-AILab/flash-attention#825: torch built for CUDA 12.1, nvcc 10.1 on the PATH
    nvcc = (CASES / "flash-attn-nvcc-10-825/env.txt").read_text()
    env = merge([read_listing("torch==2.1.2+cu121\nflash-attn==2.3.3\n"), read_listing(nvcc)])
    (conflict,) = check(env)
    assert conflict.installed == "10.1"
    assert "the nvcc toolkit a source build compiles with is 10.1" in conflict.message


def test_bitsandbytes_release_needs_a_newer_torch() -> None:
    (conflict,) = check(read_listing("torch==2.1.2\nbitsandbytes==0.46.0\n"))
    assert conflict.requirement == "torch>=2.2,<3"
    # no companion row exists for bitsandbytes: torch moves, or bitsandbytes does
    assert conflict.commands == ('pip install "torch<3,>=2.2"',)


def test_deepspeed_ops_with_an_nvcc_of_another_major() -> None:
    # deepspeedai/DeepSpeed-MII#277: system CUDA 11.7, torch built with 12.1
    env = merge([read_listing("torch==2.1.0+cu121\ndeepspeed==0.12.3\n"), _nvcc("11.7")])
    (conflict,) = check(env)
    assert (conflict.kind, conflict.installed) == ("toolkit", "11.7")
    assert conflict.commands == (
        "pip install torch==2.1.0 --index-url https://download.pytorch.org/whl/cu117",
    )
    same_major = merge([read_listing("torch==2.1.0+cu121\ndeepspeed==0.12.3\n"), _nvcc("12.2")])
    assert check(same_major) == []
    apex = merge([read_listing("torch==2.1.0+cu121\napex==0.1\n"), _nvcc("12.2")])
    assert [c.package for c in check(apex)] == ["apex"]  # apex wants the exact version


def _nvcc(release: str) -> Environment:
    return read_listing(f"Cuda compilation tools, release {release}, V{release}.0\n")


@pytest.mark.parametrize(
    "path",
    sorted(FIXTURES.glob("*.txt")) + sorted(CASES.glob("*/env.txt")),
    ids=lambda p: p.parent.name if p.name == "env.txt" else p.name,
)
def test_real_listings_raise_no_new_alarm(path: Path) -> None:
    assert _new_rule_conflicts(path.read_text(errors="replace")) == []


def test_new_rows_cite_pinned_sources() -> None:
    loaded = matrix.load()
    sources = [r.source for r in loaded.cuda_ranges] + [t.source for t in loaded.toolkits]
    sources += [r.source for r in loaded.rules if _from_new_file(r.source.key)]
    assert len(sources) >= 40
    for source in sources:
        assert source.url.startswith("https://github.com/") and len(source.detail) > 30
        assert "/blob/main/" not in source.url and "/blob/master/" not in source.url
