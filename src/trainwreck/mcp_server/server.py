"""The MCP server: each trainwreck answer registered as a tool of the official SDK.

Imports the `mcp` SDK, so only `trainwreck mcp` loads this module. Tool
descriptions are written for the agent reading them: when to call the tool,
what to pass, what comes back. Every tool returns Markdown (with `[kb:<id>]`
pages and `[source](url)` links) plus the same facts as structured content.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from trainwreck.mcp_server import answer_rules, answers, fleet
from trainwreck.mcp_server.calls import Server, result
from trainwreck.mcp_server.fleet import MAX_TRIAGE_RUNS
from trainwreck.mcp_server.inputs import MAX_LOG_BYTES, Policy
from trainwreck.version import __version__

READ_ONLY = ToolAnnotations(readOnlyHint=True, openWorldHint=False, idempotentHint=True)
INSTRUCTIONS = (
    "trainwreck diagnoses failed ML training and serving runs offline from a curated, cited "
    "knowledge base. Prefer its answers to memory for versions, config keys, defaults and memory "
    "arithmetic; quote its [kb:<id>] pages and [source](url) links; never present a key it marks "
    "unverified as verified."
)


# A docstring cannot hold the cap's value, so the triage tool's description is built here.
TRIAGE_DESCRIPTION = f"""Group many failed runs by root cause: every run under `paths` is diagnosed
and runs that failed for the same reason are folded into one group, with its count, first and
last time seen, example runs, framework versions, and the fix the group shares. At most
{MAX_TRIAGE_RUNS} runs per call; the answer says when it stopped there.

Call this when the user has many failed jobs (a sweep, a night of cluster jobs) and asks which
failures are the same or what is new; open a group's page with get_page and diagnose one
example run with diagnose_failure for the full report. The structured content is `trainwreck
triage --format json`.
"""


Logs = Annotated[
    str | None,
    Field(
        description=f"The log text itself: traceback, stderr, training log tail. At most "
        f"{MAX_LOG_BYTES // 2**20} MiB; text only (binary data is refused)."
    ),
]


def build(policy: Policy) -> MCPServer[Any]:
    """The server with every tool bound to `policy` (allowed paths, network)."""
    server = Server(
        "trainwreck",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        subscriptions=False,
    )

    @server.tool(annotations=READ_ONLY)
    def diagnose_failure(
        symptoms: Annotated[
            str | None,
            Field(
                description="What went wrong, in words (e.g. 'NaN loss after 2k steps on 8xA100')."
            ),
        ] = None,
        logs: Logs = None,
        paths: Annotated[
            list[str] | None,
            Field(
                description="Log files or run directories to read; only under the --allow roots "
                "the server was started with."
            ),
        ] = None,
    ) -> CallToolResult:
        """Diagnose a failed or misbehaving training/serving run: the root cause, mechanism, the
        arithmetic, and the least destructive fix with config keys verified for the user's
        framework version, each with its knowledge-base page and source.

        Call this first whenever the user shows a traceback, an error, a crash, an OOM, NaN/inf
        loss, a hang or a slow run. Pass the raw log text in `logs` (do not summarise it) and the
        user's description in `symptoms`. Returns the same report as `trainwreck diagnose`; the
        structured content is its `--format json` (hypotheses ranked best first, confidence,
        evidence lines, fixes, citations).
        """
        return result("diagnose_failure", answers.diagnose_failure, policy, symptoms, logs, paths)

    @server.tool(annotations=READ_ONLY)
    def search_knowledge(
        query: Annotated[
            str, Field(description="Error text, symptom or topic, e.g. 'NCCL watchdog timeout'.")
        ],
        context: Annotated[
            str | None,
            Field(description="Optional setup words that narrow it: framework, GPU, method."),
        ] = None,
    ) -> CallToolResult:
        """Search the knowledge base of documented ML failure patterns. Returns pages ranked by
        relevance, each with its root cause and, per source, the specific fact that source
        establishes; then confirmed real failures (public threads, the team's store) whose
        error lines resemble the query, each with its confirmed cause and thread.

        Call this when the user asks about a failure mode or an error message without logs to
        diagnose, or to find the page id to open with get_page.
        """
        return result("search_knowledge", answers.search_knowledge, query, context)

    @server.tool(annotations=READ_ONLY)
    def get_page(
        page_id: Annotated[
            str,
            Field(
                description="A page id as in [kb:<id>] (with or without 'kb:'), or a confirmed "
                "case as case:<id>."
            ),
        ],
    ) -> CallToolResult:
        """Open one knowledge-base page in full: root cause, mechanism, every fix with exact
        config keys, the discriminating check and its cost, affected versions, sources, and real
        cases. A case:<id> opens a confirmed real failure: its error lines, cause, fix and thread.
        Call this after diagnose_failure or search_knowledge names a page you need to explain
        or act on.
        """
        return result("get_page", answers.get_page, page_id)

    @server.tool(annotations=READ_ONLY)
    def query_hyperparameter_priors(
        query: Annotated[
            str,
            Field(
                description="The knob and the setting, e.g. 'learning rate for QLoRA on a 70B "
                "model', 'adam epsilon fp16', 'vllm max_num_seqs'."
            ),
        ],
        framework_versions: Annotated[
            dict[str, str] | None,
            Field(
                description="The user's versions, e.g. {'transformers': '4.46.3', 'peft': "
                "'0.13.2'}, to report the default of each knob in that version."
            ),
        ] = None,
    ) -> CallToolResult:
        """Recommended starting values for common hyperparameters, each from a cited published
        recipe or paper: learning rate by model size and method (full fine-tune, LoRA, QLoRA,
        DPO, pretraining), warmup, LoRA rank/alpha/dropout/target modules, Adam betas and epsilon
        for fp16 vs bf16, gradient clipping, weight decay, batch size, and vLLM memory knobs
        (gpu_memory_utilization, max_num_seqs, max_model_len). Also returns each knob's default
        in the user's framework version, read from bundled schema snapshots.

        Call this before suggesting a hyperparameter value instead of answering from memory; say
        which source a value comes from, and when it equals the user's default it is not a fix.
        """
        return result(
            "query_hyperparameter_priors", answers.query_priors, query, framework_versions
        )

    @server.tool(annotations=READ_ONLY)
    def propose_hypothesis(
        current_status: Annotated[
            str,
            Field(
                description="What the run is doing now, e.g. 'loss NaN at step 1200, bf16, 8xH100'."
            ),
        ],
        recent_experiments: Annotated[
            list[str] | None,
            Field(
                description="What was already tried and what happened, one per item, e.g. "
                "'lowered lr to 1e-5, still NaN'."
            ),
        ] = None,
        logs: Logs = None,
    ) -> CallToolResult:
        """Plan the next debugging step: ranked hypotheses for what is wrong, each with the check
        that confirms or rules it out and that check's cost (seconds, minutes, hours, a run);
        near-ties are ordered cheapest check first.

        Call this when a run is still misbehaving and the user asks what to try next. An
        experiment that changed a key a hypothesis's fix would change, and reports the problem
        persisted ('still', 'same', 'didn't help'), halves that hypothesis's score; the answer
        shows which experiment demoted it.
        """
        return result(
            "propose_hypothesis",
            answers.propose_hypothesis,
            policy,
            current_status,
            recent_experiments,
            logs,
        )

    @server.tool(annotations=READ_ONLY)
    def check_config(
        config: Annotated[
            str,
            Field(
                description="The config text: TrainingArguments/TRL/PEFT/vLLM JSON or YAML, a "
                "DeepSpeed JSON, an Accelerate YAML, or a launch command with --flags."
            ),
        ],
        framework: Annotated[
            str | None,
            Field(
                description="transformers, trl (or trl:DPOConfig), peft, accelerate, deepspeed "
                "or vllm; detected when omitted."
            ),
        ] = None,
        version: Annotated[
            str | None,
            Field(description="The user's framework version, e.g. '4.46.3'; needs framework."),
        ] = None,
    ) -> CallToolResult:
        """Check every key of a config against the schema of the user's framework version:
        unknown or misspelt keys, renamed or removed keys, wrong types, invalid choices and
        contradictions, with suggestions. Call this before recommending config edits, and on any
        config the user pastes; report only keys this tool verified as verified.
        """
        return result("check_config", answers.check_config, config, framework, version)

    @server.tool(annotations=READ_ONLY)
    def estimate_memory(
        model: Annotated[
            str,
            Field(
                description="A bundled hub id (e.g. 'meta-llama/Meta-Llama-3-8B') or a "
                "config.json path under the server's --allow roots."
            ),
        ],
        gpus: Annotated[str | None, Field(description="e.g. '4xA100-80GB', 'H100-SXM'.")] = None,
        batch_size: int | None = None,
        seq_len: int | None = None,
        dtype: Literal["fp32", "bf16", "fp16"] | None = None,
        quant: Literal["int8", "nf4", "fp4"] | None = None,
        optimizer: Literal[
            "adamw", "adamw-8bit", "paged-adamw-8bit", "sgd", "sgd-momentum", "adafactor"
        ]
        | None = None,
        zero: Annotated[
            int | None, Field(description="DeepSpeed ZeRO stage; 3 = FSDP full shard.")
        ] = None,
        lora_r: int | None = None,
        lora_targets: list[str] | None = None,
        gradient_checkpointing: bool | None = None,
        attention: Literal["sdpa", "flash", "eager"] | None = None,
        serve: Annotated[
            bool | None, Field(description="Inference: KV cache and the vLLM budget.")
        ] = None,
        max_model_len: int | None = None,
        gpu_memory_utilization: float | None = None,
        tensor_parallel: int | None = None,
    ) -> CallToolResult:
        """Per-GPU memory of training or serving a model, line by line (weights, gradients,
        optimizer state, activations, KV cache), each input labelled with where it came from,
        whether it fits the GPU, and recomputed changes that would make it fit.

        Call this for any 'will it fit', OOM-planning or KV-cache question instead of estimating
        by hand; show the user the lines and their arithmetic.
        """
        settings = {
            "gpus": gpus, "batch_size": batch_size, "seq_len": seq_len, "dtype": dtype,
            "quant": quant, "optimizer": optimizer, "zero": zero, "lora_r": lora_r,
            "lora_targets": lora_targets, "gradient_checkpointing": gradient_checkpointing,
            "attention": attention, "serve": serve, "max_model_len": max_model_len,
            "gpu_memory_utilization": gpu_memory_utilization, "tensor_parallel": tensor_parallel,
        }  # fmt: skip
        return result("estimate_memory", answers.estimate_memory, policy, model, settings)

    @server.tool(annotations=READ_ONLY, description=TRIAGE_DESCRIPTION)
    def triage(
        paths: Annotated[
            list[str],
            Field(
                description="Folders of runs (each sub-folder holding files is one run) or log "
                "files; only under the --allow roots the server was started with."
            ),
        ],
        # An object, since the SDK parses a str | None argument's JSON text into one.
        baseline_json: Annotated[
            dict[str, Any] | str | None,
            Field(
                description="A previous triage's JSON: this tool's structured content (the "
                "object), or the text of `trainwreck triage --format json`; groups it lacks "
                "are marked new."
            ),
        ] = None,
    ) -> CallToolResult:
        return result("triage", fleet.triage, policy, paths, baseline_json)

    @server.tool(annotations=READ_ONLY)
    def compare_runs(
        good: Annotated[
            str,
            Field(
                description="The run that worked: its directory or one of its files, under the "
                "--allow roots."
            ),
        ],
        bad: Annotated[
            str,
            Field(description="The run that broke, given the same way as `good`."),
        ],
    ) -> CallToolResult:
        """What changed between a run that worked and one that broke: packages and versions,
        CUDA and driver, config keys (defaults filled in from the framework's schema), and
        command-line flags, ranked by what the knowledge base knows each change can cause (a
        known-bug version range entered, a key a page names), each with its pages; then the
        first step where BAD's loss leaves GOOD's band.

        Call this when the user says a run used to work, or has a good and a bad run to set
        side by side; check the top change first. The structured content is `trainwreck
        compare --format json`.
        """
        return result("compare_runs", fleet.compare_runs, policy, good, bad)

    @server.tool(annotations=READ_ONLY)
    def check_answer(
        answer: Annotated[
            str,
            Field(description="Your Markdown diagnosis, exactly as you would show it to the user."),
        ],
        evidence: Annotated[
            list[str] | None,
            Field(
                description="The run's log files, run directory or config.json the diagnosis is "
                "about, to look quotes up and recompute arithmetic; only under the --allow roots."
            ),
        ] = None,
    ) -> CallToolResult:
        """Check a diagnosis before showing it: every claim cited (a [kb:<id>] page, a URL) or
        marked [no KB]; High confidence only for a documented, cited, unconditional mechanism
        with quoted log lines found in the evidence; recommended keys that exist in the user's
        framework version and are not its defaults; before -> after values; one consolidated
        config; a verification script that compiles and imports what exists; cheapest check
        first among alternatives; numeric prevention thresholds; exact versions; arithmetic
        with sourced inputs that reproduces (KV cache from num_key_value_heads).

        Call this last, on your final answer; fix every FAIL (each names its line) and call it
        again. The structured content is `trainwreck check-answer --format json`.
        """
        return result("check_answer", answer_rules.check_answer, policy, answer, evidence)

    server.close_schemas()
    return server
