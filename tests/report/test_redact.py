"""Secrets never reach a report; ordinary training-log text is never mangled."""

from __future__ import annotations

import html
import json
import time

import pytest
from report_fixtures import oom_diagnosis, with_evidence

from trainwreck.model import Change, Fix
from trainwreck.redact import redact, redact_data, redact_value
from trainwreck.report import to_html, to_json, to_markdown

# (line as it appears in a log, the secret in it, the placeholder label)
PLANTED = [
    (
        "HF_TOKEN=hf_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z",
        "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z",
        "hf-token",
    ),
    (
        "login(token='hf_Qw2Er4Ty6Ui8Op0As2Df4Gh6Jk8Lz0Xc2V')",
        "Qw2Er4Ty6Ui8Op0As2Df4Gh6Jk8Lz0Xc2V",
        "hf-token",
    ),
    (
        "openai.api_key = sk-proj-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv_wx-YZ12",
        "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv_wx-YZ12",
        "openai-key",
    ),
    (
        "judge key sk-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBaZx9Yw8Vu7T",
        "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBaZx9Yw8Vu7T",
        "openai-key",
    ),
    (
        "ANTHROPIC_API_KEY=sk-ant-api03-Qw1Er2Ty3Ui4Op5As6Df7Gh8Jk9Lz0Xc-Vb_Nm1234AA",
        "Qw1Er2Ty3Ui4Op5As6Df7Gh8Jk9Lz0Xc-Vb_Nm1234AA",
        "anthropic-key",
    ),
    ("s3 upload with AKIAIOSFODNN7EXAMPLE failed", "AKIAIOSFODNN7EXAMPLE", "aws-access-key-id"),
    ("creds ASIAY34FZKBOKMUTVV7A expired", "ASIAY34FZKBOKMUTVV7A", "aws-access-key-id"),
    (
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "aws-secret-key",
    ),
    (
        "WANDB_API_KEY=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
        "wandb-key",
    ),
    (
        "+ wandb login 2c26b46b68ffc68ff99b453c1d30413413422d70",
        "2c26b46b68ffc68ff99b453c1d30413413422d70",
        "wandb-key",
    ),
    (
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0cmFpbiJ9.c2lnbmF0dXJl",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0cmFpbiJ9.c2lnbmF0dXJl",
        "jwt",
    ),
    ("Authorization: Bearer abc123", "abc123", "bearer-token"),
    (
        "pushing to https://trainer:Tr4in-P4ss@registry.example.internal/v2/",
        "Tr4in-P4ss",
        "url-password",
    ),
    ("connect(password=Sup3rSecret!, user='ml')", "Sup3rSecret!", "password"),
    ('DB_PASSWORD: "hunter22"', "hunter22", "password"),
    ("--password hunter22", "hunter22", "password"),
    ("api_key=0a1b2c3d4e5f6g7h", "0a1b2c3d4e5f6g7h", "credential"),
    ("GITHUB_TOKEN=ghp_1234abcdEFGH5678ijkl", "ghp_1234abcdEFGH5678ijkl", "github-token"),
    ("--token tok_live_51HxYz9", "tok_live_51HxYz9", "credential"),
]

# Ordinary lines from real training logs that must come through byte for byte.
NEAR_MISSES = [
    "/root/.cache/huggingface/hub/models--meta-llama--Meta-Llama-3-8B/snapshots/"
    "62bd457b6fe961a42a631306577e622c83876cb6/config.json",
    "wandb: Run data is saved locally in ./wandb/run-20240611_101530-3f2b8c1e",
    "run_id=3f2b8c1e-9d4a-4e6b-8f1a-2c3d4e5f6a7b",
    "GPU-1e4a7c9b-3d2f-4a8e-9b6c-5d7e8f9a0b1c, NVIDIA A100-SXM4-80GB, 00000000:07:00.0",
    "task-2048 done; disk-0123456789abcdefghij mounted",
    "Special tokens: pad_token='<|finetune_right_pad_id|>', eos_token='<|eot_id|>'",
    "hub_token=<HUB_TOKEN>, push_to_hub_token=None",
    "MASTER_ADDR=tcp://10.0.0.12:29500 init_method=env://",
    "Missing key(s) in state_dict: model.embed_tokens.weight, lm_head.weight",
    "unexpected key: model.layers.0.self_attn.rotary_emb.inv_freq",
    "{'train_tokens_per_second': 2315.4, 'max_new_tokens': 512, 'token': 42}",
    "Downloading hf_transfer wheels; calling hf_hub_download(repo_id='meta-llama/Llama-3')",
    "scikit-learn==1.5.0 sk-video==1.1.10",
    "commit 5f0b02c75b57c5855da9ae460ce51323ea669d8a (ASIAN-subset eval)",
    "the bearer of bad news: loss spiked at step 8120",
    "password_min_length: 8",
]


@pytest.mark.parametrize(("line", "secret", "label"), PLANTED)
def test_each_secret_is_replaced_by_its_labelled_placeholder(
    line: str, secret: str, label: str
) -> None:
    out = redact(line)
    assert secret not in out
    assert f"<redacted:{label}>" in out


def test_context_around_a_secret_stays() -> None:
    assert redact("https://trainer:Tr4in-P4ss@registry.example.internal/v2/") == (
        "https://trainer:<redacted:url-password>@registry.example.internal/v2/"
    )
    assert redact('DB_PASSWORD: "hunter22"') == 'DB_PASSWORD: "<redacted:password>"'
    assert (
        redact("HF_TOKEN=hf_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z") == "HF_TOKEN=<redacted:hf-token>"
    )


@pytest.mark.parametrize("line", NEAR_MISSES)
def test_near_misses_are_untouched(line: str) -> None:
    assert redact(line) == line


@pytest.mark.parametrize(("line", "secret", "label"), PLANTED)
def test_redaction_is_idempotent(line: str, secret: str, label: str) -> None:
    once = redact(line)
    assert redact(once) == once


def test_redact_data_reaches_nested_strings_and_keys() -> None:
    data = {"env": {"HF_TOKEN=hf_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z": ["password=hunter22", 3]}}
    assert redact_data(data) == {
        "env": {"HF_TOKEN=<redacted:hf-token>": ["password=<redacted:password>", 3]}
    }


def test_common_lines_are_cheap_and_long_lines_are_linear() -> None:
    lines = [
        "{'loss': 1.2345, 'grad_norm': 0.873, 'learning_rate': 1.9e-05, 'epoch': 0.42}",
        "step 1200/5000 | 3.41 it/s | tokens/s 12345 | mem 71.2GiB | key=value",
    ] * 10_000
    started = time.perf_counter()
    for line in lines:
        redact(line)
    assert time.perf_counter() - started < 2.0  # about 0.1 s; a backtracking regex is 100x
    started = time.perf_counter()
    redact("password_x_" * 20_000 + "token" * 20_000)
    assert time.perf_counter() - started < 2.0  # a quadratic rule takes minutes here


@pytest.fixture(scope="module")
def planted_reports() -> dict[str, str]:
    diagnosis = with_evidence(oom_diagnosis(), [line for line, _, _ in PLANTED] + NEAR_MISSES)
    return {
        "markdown": to_markdown(diagnosis),
        "json": to_json(diagnosis),
        "html": to_html(diagnosis),
    }


@pytest.mark.parametrize("fmt", ["markdown", "json", "html"])
def test_no_planted_secret_survives_any_format(planted_reports: dict[str, str], fmt: str) -> None:
    report = planted_reports[fmt]
    survivors = [secret for _, secret, _ in PLANTED if secret in report]
    assert survivors == []
    assert report.count("redacted:") >= len(PLANTED)


@pytest.mark.parametrize("fmt", ["markdown", "json", "html"])
def test_near_misses_survive_every_format(planted_reports: dict[str, str], fmt: str) -> None:
    report = planted_reports[fmt]
    if fmt == "json":
        quoted = [e["text"] for e in json.loads(report)["hypotheses"][0]["evidence"]]
        missing = [line for line in NEAR_MISSES if line not in quoted]
    else:
        text = report if fmt == "markdown" else html.unescape(report)
        missing = [line for line in NEAR_MISSES if line not in text]
    assert missing == []


def test_secrets_outside_evidence_are_redacted_too() -> None:
    top = oom_diagnosis().hypotheses[0]
    fix = top.fixes[0].model_copy(
        update={
            "commands": ("huggingface-cli login --token hf_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z",)
        }
    )
    diagnosis = oom_diagnosis().model_copy(
        update={
            "hypotheses": (top.model_copy(update={"fixes": (fix,)}),),
            "warnings": ("could not read s3://ml:Sup3rSecret@bucket/run.log",),
        }
    )
    for report in (to_markdown(diagnosis), to_json(diagnosis), to_html(diagnosis)):
        assert "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z" not in report
        assert "Sup3rSecret" not in report


def test_a_value_is_redacted_in_the_context_of_its_name() -> None:
    hex_key = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"
    assert redact(hex_key) == hex_key  # 40 hex alone is a commit hash
    assert redact_value("WANDB_API_KEY", hex_key) == "<redacted:wandb-key>"
    assert redact_value("commit", hex_key) == hex_key
    assert redact_data({"token": "abcd1234efgh", "key": "lm_head.weight"}) == {
        "token": "<redacted:credential>",
        "key": "lm_head.weight",
    }


def test_change_values_are_redacted_in_the_context_of_their_path() -> None:
    hex_key = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"
    fix = Fix(
        action="Use a key for this team's project",
        changes=(Change(path="WANDB_API_KEY", before=hex_key, after="<your key>", verified=True),),
    )
    diagnosis = oom_diagnosis()
    top = diagnosis.hypotheses[0].model_copy(
        update={"fixes": (fix,), "values": {"token": "abcd1234efgh"}}
    )
    diagnosis = diagnosis.model_copy(update={"hypotheses": (top,)})
    for report in (to_markdown(diagnosis), to_json(diagnosis), to_html(diagnosis)):
        assert hex_key not in report
        assert "abcd1234efgh" not in report
