"""`trainwreck mcp` as agents run it: a subprocess spoken to by the SDK's real stdio client."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from mcp import ClientSession
from mcp_session import CASES, ROOT, structured, text_of, with_server

from trainwreck.curation.cases import load_case

TOOLS = {
    "diagnose_failure",
    "search_knowledge",
    "get_page",
    "query_hyperparameter_priors",
    "propose_hypothesis",
    "check_config",
    "estimate_memory",
    "triage",
    "compare_runs",
    "check_answer",
}
# A real traceback: DeepSpeed building a CUDA op on a machine without CUDA_HOME.
CASE = load_case(CASES / "minimind-deepspeed-cuda-home-48")
LOG = CASE.inputs[0].resolve()


def _cli_json(*args: str) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "trainwreck", "diagnose", *args, "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _without_input_names(report: dict[str, Any]) -> dict[str, Any]:
    """The report minus what names the input (a path, or '-' for text passed in)."""
    clean = json.loads(json.dumps(report))
    for hypothesis in clean["hypotheses"]:
        for line in hypothesis["evidence"]:
            line.pop("source")
    for case in clean.get("similar_cases", []):
        for line in case["matched"]:
            line.pop("source")
    for item in clean.get("inputs", []):
        item.pop("path")
        item.pop("size_bytes", None)
    context = clean.get("context", {})
    context["frameworks"] = sorted(context.get("frameworks", {}))  # where: a path or '-'
    return clean


async def _every_tool(session: ClientSession) -> dict[str, Any]:
    listed = await session.list_tools()
    calls = {
        "tools": {tool.name: tool for tool in listed.tools},
        "by_path": await session.call_tool("diagnose_failure", {"paths": [str(LOG)]}),
        "by_text": await session.call_tool(
            "diagnose_failure", {"logs": LOG.read_text(encoding="utf-8")}
        ),
        "search": await session.call_tool(
            "search_knowledge", {"query": "CUDA_HOME does not exist", "context": "deepspeed"}
        ),
        "page": await session.call_tool("get_page", {"page_id": f"kb:{CASE.top_pattern}"}),
        "priors": await session.call_tool(
            "query_hyperparameter_priors",
            {
                "query": "learning rate for QLoRA on a 65B model",
                "framework_versions": {"transformers": "4.46.3"},
            },
        ),
        "hypotheses": await session.call_tool(
            "propose_hypothesis",
            {
                "current_status": "deepspeed fails while building its fused Adam op",
                "recent_experiments": ["reinstalled deepspeed, same error"],
                "logs": LOG.read_text(encoding="utf-8"),
            },
        ),
        "check": await session.call_tool(
            "check_config",
            {
                "config": '{"learning_rate": 2e-5, "evaluation_strategy": "steps", "lora_rnk": 8}',
                "framework": "transformers",
                "version": "4.46.3",
            },
        ),
        "memory": await session.call_tool(
            "estimate_memory",
            {"model": "Qwen/Qwen3-8B", "gpus": "A100-80GB", "batch_size": 4, "seq_len": 4096},
        ),
    }
    return calls


def test_every_tool_answers_with_citations_and_the_cli_diagnosis() -> None:
    calls = with_server("--allow", str(CASES))(_every_tool)

    assert set(calls["tools"]) == TOOLS
    assert all(len(tool.description or "") > 200 for tool in calls["tools"].values())
    assert "20 MiB" in json.dumps(calls["tools"]["diagnose_failure"].input_schema)

    # The same evidence gives the CLI's JSON: exactly by path, and by text apart from the name.
    by_path = structured(calls["by_path"])
    assert by_path == _cli_json(str(LOG))
    assert by_path["hypotheses"][0]["id"] == CASE.top_pattern
    assert _without_input_names(structured(calls["by_text"])) == _without_input_names(by_path)
    markdown = text_of(calls["by_path"])
    assert f"[kb:{CASE.top_pattern}]" in markdown and "[source](https://" in markdown

    pages = structured(calls["search"])["pages"]
    assert CASE.top_pattern in [page["id"] for page in pages[:3]]
    assert all(fact["url"].startswith("https://") for page in pages for fact in page["facts"])
    assert "[source](https://" in text_of(calls["search"])

    page = structured(calls["page"])
    assert page["id"] == CASE.top_pattern and page["citations"]
    assert f"`kb:{CASE.top_pattern}`" in text_of(calls["page"])

    priors = structured(calls["priors"])
    assert priors["priors"][0]["method"] == "qlora" and priors["priors"][0]["value"] == "1e-4"
    default = priors["defaults"][0]
    assert (default["version"], default["default"]) == ("4.46.3", 5e-05)
    assert "[source](https://github.com/artidoro/qlora/" in text_of(calls["priors"])

    hypotheses = structured(calls["hypotheses"])["hypotheses"]
    assert hypotheses[0]["id"] == CASE.top_pattern and hypotheses[0]["check"]
    assert hypotheses[0]["check_cost"] in {"seconds", "minutes", "hours", "run"}

    report = structured(calls["check"])["files"][0]
    kinds = {problem["key"]: problem["kind"] for problem in report["problems"]}
    assert kinds == {"evaluation_strategy": "deprecated", "lora_rnk": "unknown-key"}
    assert report["frameworks"] == {"transformers": "4.46.3"}
    assert "[source](https://github.com/huggingface/transformers/blob/v4.46.3/" in text_of(
        calls["check"]
    )

    memory = structured(calls["memory"])
    assert memory["model"] == "Qwen/Qwen3-8B" and memory["fits"] in (True, False)
    assert "batch_size=4 (tool argument)" in text_of(calls["memory"])


async def _bad_then_good(session: ClientSession) -> list[tuple[bool, str]]:
    bad = [
        ("get_page", {}),
        ("diagnose_failure", {"logs": "x" * (50 * 2**20)}),
        ("diagnose_failure", {"logs": bytes(range(256)).decode("latin-1") * 400}),
        ("diagnose_failure", {"paths": ["/etc/passwd"]}),
        ("diagnose_failure", {"paths": [str(CASES / ".." / ".." / "pyproject.toml")]}),
        ("estimate_memory", {"model": "/etc/hostname"}),
        ("check_config", {"config": "{not json", "framework": "transformers"}),
        ("check_config", {"config": "lr: 1", "framework": "tensorflow"}),
        ("estimate_memory", {"model": "Qwen/Qwen3-8B", "dtype": "fp8"}),
        ("query_hyperparameter_priors", {"query": "what is love"}),
        ("no_such_tool", {}),
    ]
    answers = []
    for name, arguments in bad:
        result = await session.call_tool(name, arguments)
        answers.append((result.is_error, text_of(result)))
    good = await session.call_tool("get_page", {"page_id": CASE.top_pattern})
    answers.append((good.is_error, text_of(good)))
    return answers


def test_bad_arguments_are_one_line_tool_errors_and_the_server_keeps_serving() -> None:
    answers = with_server("--allow", str(CASES))(_bad_then_good)
    *errors, (good_is_error, good_text) = answers

    for is_error, message in errors:
        assert is_error, message
        assert len(message.splitlines()) == 1, message
        assert "Traceback" not in message
    messages = [message for _, message in errors]
    assert "missing required argument 'page_id'" in messages[0]
    assert "50.0 MiB; the limit is 20 MiB" in messages[1]
    assert "does not look like text" in messages[2]
    assert "outside the allowed paths" in messages[3]
    assert "outside the allowed paths" in messages[4]  # `..` cannot climb out of a root
    assert "outside the allowed paths" in messages[5]
    assert "config.json" in messages[6]
    assert "use one of transformers" in messages[7]
    assert "argument 'dtype'" in messages[8]
    assert "no prior matches" in messages[9]
    assert "no_such_tool" in messages[10]
    assert not good_is_error and f"`kb:{CASE.top_pattern}`" in good_text


def test_without_allow_no_path_is_readable() -> None:
    async def body(session: ClientSession) -> str:
        return text_of(await session.call_tool("diagnose_failure", {"paths": [str(LOG)]}))

    assert "file paths are disabled" in with_server()(body)
