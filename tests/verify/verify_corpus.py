"""The real-config corpus: each source with the framework versions it was written for.

Versions come from each project's own pins at the commit the files were taken from
(setup.py / pyproject.toml), or the release the example ships with.
"""

from __future__ import annotations

from pathlib import Path

CONFIGS = Path(__file__).parent / "configs"

ERA: dict[str, dict[str, str]] = {
    # alignment-handbook @925acdfe (2025-07): trl 0.19 era
    "alignment-handbook": {
        "transformers": "4.54.1",
        "trl": "0.19.1",
        "accelerate": "1.8.1",
        "peft": "0.16.0",
    },
    # open-r1 @1416fa0c: setup.py pins transformers 4.52.3, accelerate 1.4.0, deepspeed 0.16.8
    "open-r1": {
        "transformers": "4.52.3",
        "trl": "0.18.2",
        "accelerate": "1.4.0",
        "deepspeed": "0.16.8",
    },
    # LLaMA-Factory @ff6d4d12: transformers<=5.8, trl<=0.24, peft<=0.18.1, accelerate<=1.11
    "llama-factory": {
        "transformers": "4.57.6",
        "trl": "0.24.0",
        "peft": "0.18.1",
        "accelerate": "1.10.1",
        "deepspeed": "0.17.6",
    },
    "axolotl": {"transformers": "4.57.6", "trl": "0.24.0", "peft": "0.17.1", "deepspeed": "0.17.6"},
    "trl": {"transformers": "4.52.4", "trl": "0.19.1", "accelerate": "1.8.1", "peft": "0.15.2"},
    "accelerate": {"accelerate": "1.6.0", "deepspeed": "0.16.9"},
    "vllm-tutorial": {"vllm": "0.9.2"},
    "multiagentsdebate": {"vllm": "0.9.2"},
    "itrap": {"vllm": "0.6.6.post1"},
}


def corpus() -> list[Path]:
    return sorted(p for p in CONFIGS.iterdir() if p.name != "SOURCES.md")


def era(path: Path) -> dict[str, str]:
    return ERA[path.name.split("--", 1)[0]]
