"""`trainwreck check-answer` as users run it: exit 0, 1 and 2, and the JSON shape."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import assert_one_line_error, run
from trainwreck.answer_check.model import RULE_IDS
from trainwreck.memory.config import MODELS_DIR

ROOT = Path(__file__).resolve().parents[2]
ANSWERS = Path(__file__).parent / "answers"
CLEAN = ANSWERS / "free" / "clean-vllm-kv-cache.md"
BROKEN = ANSWERS / "free" / "broken-unknown-key.md"
CASE = ROOT / "tests" / "cases" / "vllm-max-model-len-bonito-7"


def test_a_clean_answer_exits_0_and_lists_every_rule_as_passed() -> None:
    done = run("check-answer", str(CLEAN), "--evidence", str(CASE / "train.log"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("## Answer check: all rules pass")
    assert all(f"- PASS `{rule}`" in done.stdout for rule in RULE_IDS)


def test_a_broken_answer_exits_1_with_the_rule_and_its_line_in_json() -> None:
    done = run("check-answer", str(BROKEN), "--format", "json")
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"passed", "evidence", "env_listing", "results"} and data["passed"] is False
    failed = [r for r in data["results"] if not r["passed"]]
    assert [(r["rule"], r["line"]) for r in failed] == [("unknown-key", 26)]
    assert set(failed[0]) == {"rule", "passed", "line", "message"}
    assert {r["rule"] for r in data["results"]} == set(RULE_IDS)


def test_the_env_listing_sets_the_version_keys_are_checked_against(tmp_path: Path) -> None:
    listing = tmp_path / "pip-freeze.txt"
    listing.write_text("vllm==0.11.2\ntorch==2.8.0\n", encoding="utf-8")
    done = run("check-answer", str(BROKEN), "--env", str(listing), "--format", "json")
    (failed,) = [r for r in json.loads(done.stdout)["results"] if not r["passed"]]
    assert "vllm 0.11.2" in failed["message"], failed  # not the answer's own 0.6.3


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty.md"
    empty.write_text("  \n", encoding="utf-8")
    assert_one_line_error(run("check-answer", str(tmp_path / "missing.md")))
    assert_one_line_error(run("check-answer", str(empty)))
    assert_one_line_error(run("check-answer", str(CLEAN), "--evidence", str(tmp_path / "no-log")))
    assert_one_line_error(run("check-answer", str(CLEAN), "--env", str(tmp_path / "no-listing")))


def test_a_kv_cache_from_attention_heads_fails_with_the_kv_heads_size() -> None:
    gqa = ANSWERS / "free" / "broken-kv-from-attention-heads.md"
    config = ANSWERS / "free" / "qwen2.5-7b-instruct" / "config.json"
    done = run("check-answer", str(gqa), "--evidence", str(config), "--format", "json")
    assert done.returncode == 1, done.stderr
    (failed,) = [r for r in json.loads(done.stdout)["results"] if not r["passed"]]
    assert (failed["rule"], failed["line"]) == ("kv-from-attention-heads", 21)
    # 2 x 28 layers x 4 KV heads x 128 head_dim x 32,768 tokens x 2 B, not the 12.25 GiB stated
    assert "56.00 KiB per token" in failed["message"]
    assert failed["message"].endswith("(expected 1.75 GiB)")


def test_the_corpus_config_is_the_bundled_qwen_config() -> None:
    bundled = MODELS_DIR / "Qwen--Qwen2.5-7B-Instruct.json"
    copy = ANSWERS / "free" / "qwen2.5-7b-instruct" / "config.json"
    assert copy.read_bytes() == bundled.read_bytes()
