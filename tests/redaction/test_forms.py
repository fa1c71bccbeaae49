"""Each secret form loses its secret where it is written; ordinary training text stays."""

from __future__ import annotations

import io
import json
import time

import pytest
import yaml

from redaction_battery import FORMS, KEY_BODY, ORDINARY, Form
from trainwreck.evidence.configs import parse_config_text
from trainwreck.evidence.logs import scan_stream
from trainwreck.evidence.matcher import build_matcher
from trainwreck.redact import (
    KEY_PLACEHOLDER,
    KeyBlockLines,
    redact,
    redact_data,
    redact_scalar,
    redact_value,
)


def test_the_battery_has_at_least_80_distinct_forms() -> None:
    assert len({form.name for form in FORMS}) == len(FORMS) >= 80
    assert len({form.planted for form in FORMS}) == len(FORMS)


@pytest.mark.parametrize("form", FORMS, ids=[form.name for form in FORMS])
def test_each_form_loses_its_secret_to_a_placeholder(form: Form) -> None:
    out = redact(form.planted)
    assert [secret for secret in form.secrets if secret in out] == []
    assert "<redacted:" in out
    assert redact(out) == out  # idempotent


@pytest.mark.parametrize("line", ORDINARY)
def test_ordinary_training_text_is_untouched(line: str) -> None:
    assert redact(line) == line


def test_the_name_decides_which_values_are_secrets() -> None:
    # A secret's own name takes any written-out value; a reference or a mask stays.
    assert redact_value("API_TOKEN", "abc") == "<redacted:credential>"
    assert redact_value("DB_PASSWORD", "a b c") == "<redacted:password>"
    assert redact_value("HF_TOKEN", "$HF_TOKEN") == "$HF_TOKEN"
    assert redact_value("password", "***") == "***"
    # `*_token` / `*_key` with another word in front: only a generated-looking value.
    assert redact_value("pad_token", "[PAD]") == "[PAD]"
    assert redact_value("cache_key", "qwen2-7b") == "qwen2-7b"
    assert redact_value("KAGGLE_KEY", "9daac6a7e00b0edd") == "<redacted:credential>"
    # A name that only contains a secret's word keeps its numbers.
    assert redact_scalar("password_min_length", 8) == 8
    assert redact_scalar("password", 12345678) == "<redacted:password>"
    assert redact_scalar("use_auth_token", True) is True
    # A word after a colon with more words after it is a sentence; a comment is not one.
    assert redact("password: must be 8 characters") == "password: must be 8 characters"
    assert redact("password: changeme  # prod") == "password: <redacted:password>  # prod"
    # The shape's label wins over the name's.
    assert redact_value("HF_TOKEN", "hf_" + "a1" * 17) == "<redacted:hf-token>"


def test_nested_values_are_read_in_the_context_of_their_keys() -> None:
    data = {"wandb": {"api_key": "b656d252e214"}, "passwords": ["pw-one", "pw-two"], "steps": 9}
    assert redact_data(data) == {
        "wandb": {"api_key": "<redacted:credential>"},
        "passwords": ["<redacted:password>", "<redacted:password>"],
        "steps": 9,
    }


def test_a_redacted_config_still_parses() -> None:
    text = json.dumps({"api_key": 1234567890123, "private_key": "x\n" + KEY_BODY[0], "lr": 2e-5})
    assert json.loads(redact(text)) == {
        "api_key": "<redacted:credential>",
        "private_key": "<redacted:credential>",
        "lr": 2e-5,
    }
    pem = "\n".join(["-----BEGIN RSA PRIVATE KEY-----", *KEY_BODY, "-----END RSA PRIVATE KEY-----"])
    block = "key: |\n" + "".join(f"  {line}\n" for line in pem.splitlines()) + "password: 1234\n"
    parsed = yaml.safe_load(redact(block))
    assert parsed["key"].splitlines()[1:-1] == [KEY_PLACEHOLDER] * len(KEY_BODY)
    assert parsed["password"] == "<redacted:password>"
    assert redact(block).count("\n") == block.count("\n")  # line numbers still point right


def test_config_values_are_redacted_with_their_dotted_keys() -> None:
    values = parse_config_text("c.yaml", "auth:\n  token: abcd1234efgh\nlearning_rate: 2.0e-5\n")
    assert values == {"auth.token": "<redacted:credential>", "learning_rate": 2e-5}


def _key_log(filler: int, body: int, after: int, end: bool = True) -> bytes:
    lines = [f"step {n} loss 1.{n:04d}" for n in range(filler)]
    lines += ["-----BEGIN OPENSSH PRIVATE KEY-----"]
    lines += [KEY_BODY[n % len(KEY_BODY)] for n in range(body)]
    lines += ["-----END OPENSSH PRIVATE KEY-----"] if end else []
    lines += ["RuntimeError: CUDA error: an illegal memory access was encountered"] * after
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("end", [True, False], ids=["closed", "cut off"])
def test_a_key_body_is_redacted_whichever_of_its_lines_a_log_keeps(end: bool) -> None:
    # BEGIN falls between the head and the tail a scan keeps, so body lines are kept
    # (as the tail) without their marker; small chunks split the block between reads.
    data = _key_log(filler=300, body=250, after=10, end=end)
    scan = scan_stream(io.BytesIO(data), build_matcher(()), chunk_bytes=4096)
    texts = {line.line: line.text for line in scan.lines}
    assert 301 not in texts and 400 in texts  # the marker line was not kept, body lines were
    assert not any(body in text for body in KEY_BODY for text in texts.values())
    assert texts[400] == KEY_PLACEHOLDER
    assert texts[200] == "step 199 loss 1.0199"  # a head line outside the block stays
    if end:
        assert texts[max(texts)].startswith("RuntimeError: CUDA error")


def test_key_blocks_are_found_across_chunks_and_lines_inside_them_only() -> None:
    lines = ["a", "-----BEGIN RSA PRIVATE KEY-----", "b1", "-----END RSA PRIVATE KEY-----", "c"]
    lines += ["-----BEGIN EC PRIVATE KEY-----", "b2", "b3", "-----END EC PRIVATE KEY-----"]
    lines += ["d", "-----BEGIN PRIVATE KEY-----", "b4"]  # cut off: runs to the end
    data = ("\n".join(lines) + "\n").encode()
    keys = KeyBlockLines()
    middle = data.index(b"b2")  # the second block starts in one chunk and ends in the next
    keys.feed(data[:middle], 1)
    keys.feed(data[middle:], 1 + data[:middle].count(b"\n"))
    covered = [text for number, text in enumerate(lines, 1) if keys.covers(number)]
    assert covered == ["b1", "b2", "b3", "b4"]


def test_common_lines_are_cheap_and_long_lines_are_linear() -> None:
    lines = [*ORDINARY, "step 1200/5000 | 3.41 it/s | tokens/s 12345 | mem 71.2GiB"] * 1000
    started = time.perf_counter()
    for line in lines:
        redact(line)
    assert time.perf_counter() - started < 2.0  # about 0.1 s; a backtracking regex is 100x
    for hostile in (
        "password_x_" * 20_000 + "token" * 20_000,
        "a=" * 50_000,
        "https://" + "a:" * 50_000,
        "-----BEGIN RSA PRIVATE KEY-----" * 5_000,
        "api_key" + "." * 100_000,
    ):
        started = time.perf_counter()
        redact(hostile)
        assert time.perf_counter() - started < 2.0, hostile[:40]  # quadratic takes minutes
