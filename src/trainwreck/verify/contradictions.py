"""Settings that each look fine but cannot hold together, within a file or across the files
checked in one run (a DeepSpeed JSON with the accelerate config that launches it)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainwreck.verify.model import FileReport, Problem, Schema
from trainwreck.verify.read import Document

SchemaOf = Callable[[str], Schema]
Found = tuple[int, Problem]  # (index of the document, problem)
_REGEX = set(".*[]()|\\^$?+")


@dataclass
class Run:
    documents: list[Document]
    reports: list[FileReport]
    schema_of: SchemaOf

    def leaf(self, index: int, name: str) -> Any:
        """A value by its last key component (`model_init_kwargs.device_map` is `device_map`)."""
        for key, value in self.documents[index].values.items():
            if key.rsplit(".", 1)[-1].replace("-", "_") == name:
                return value
        return None

    def problem(self, index: int, key: str, message: str, suggestion: str | None) -> Found:
        line = self.documents[index].line_of(key)
        return index, Problem("contradiction", key, message, suggestion, line=line)


def _default(run: Run, name: str) -> Any:
    field = run.schema_of("transformers").classes["TrainingArguments"].get(name)
    return field.default if field is not None else None


def precision(run: Run) -> Iterator[Found]:
    for index, document in enumerate(run.documents):
        values = document.values
        if values.get("fp16.enabled") is True and values.get("bf16.enabled") is True:
            yield run.problem(
                index, "bf16", "fp16.enabled and bf16.enabled are both true", "enable only one"
            )
        elif values.get("fp16") is True and values.get("bf16") is True:
            yield run.problem(
                index, "bf16", "fp16 and bf16 are both true: pick one mixed precision", "bf16"
            )


def best_model(run: Run) -> Iterator[Found]:
    for index, report in enumerate(run.reports):
        if (
            report.kind not in ("training", "mixed")
            or run.leaf(index, "load_best_model_at_end") is not True
        ):
            continue
        evaluate = run.leaf(index, "eval_strategy") or run.leaf(index, "evaluation_strategy")
        evaluate = evaluate if evaluate is not None else _default(run, "eval_strategy")
        save = run.leaf(index, "save_strategy")
        save = save if save is not None else _default(run, "save_strategy")
        if save == "best" or evaluate is None or save is None:
            continue
        if str(evaluate) != str(save):
            yield run.problem(
                index,
                "load_best_model_at_end",
                f"load_best_model_at_end needs the eval and save strategies to match; "
                f"eval is {evaluate!r}, save is {save!r}",
                f"save_strategy: {evaluate}",
            )
            continue
        eval_steps, save_steps = run.leaf(index, "eval_steps"), run.leaf(index, "save_steps")
        steps = evaluate == "steps" and isinstance(eval_steps, int) and isinstance(save_steps, int)
        if steps and eval_steps > 0 and save_steps % eval_steps:
            yield run.problem(
                index,
                "save_steps",
                f"load_best_model_at_end needs save_steps ({save_steps}) to be a multiple "
                f"of eval_steps ({eval_steps})",
                f"save_steps: {eval_steps * max(1, round(save_steps / eval_steps))}",
            )


def world_size(run: Run) -> tuple[int, str] | None:
    for document in run.documents:
        processes = document.values.get("num_processes")
        if isinstance(processes, int) and "distributed_type" in document.values:
            return processes, f"{Path(document.path).name}:num_processes"
        flags = document.launcher_values
        for per_node, nodes in (("nproc_per_node", "nnodes"), ("num_gpus", "num_nodes")):
            count = flags.get(per_node)
            if isinstance(count, int):
                many = flags.get(nodes)
                total = count * (many if isinstance(many, int) else 1)
                return total, f"{Path(document.path).name}:--{per_node}"
        if isinstance(flags.get("num_processes"), int):
            return int(flags["num_processes"]), f"{Path(document.path).name}:--num_processes"  # type: ignore[arg-type]
    return None


def deepspeed_batch(run: Run) -> Iterator[Found]:
    world = world_size(run)
    for index, report in enumerate(run.reports):
        values = run.documents[index].values
        if report.kind != "deepspeed":
            continue
        total = values.get("train_batch_size")
        micro = values.get("train_micro_batch_size_per_gpu")
        steps = values.get("gradient_accumulation_steps", 1)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (total, micro, steps)):
            continue
        assert isinstance(total, int) and isinstance(micro, int) and isinstance(steps, int)
        if world is not None and total != micro * steps * world[0]:
            yield run.problem(
                index,
                "train_batch_size",
                f"train_batch_size {total} != train_micro_batch_size_per_gpu {micro} x "
                f"gradient_accumulation_steps {steps} x world size {world[0]} ({world[1]})",
                f"train_batch_size: {micro * steps * world[0]}",
            )
        elif world is None and total % (micro * steps):
            yield run.problem(
                index,
                "train_batch_size",
                f"train_batch_size {total} is not a multiple of train_micro_batch_size_per_gpu "
                f"{micro} x gradient_accumulation_steps {steps}: no world size satisfies it",
                'train_batch_size: "auto"',
            )


def _zero3(run: Run) -> int | None:
    for index, document in enumerate(run.documents):
        values = document.values
        if (
            values.get("zero_optimization.stage") == 3
            or values.get("deepspeed_config.zero_stage") == 3
        ):
            return index
    return None


def zero3_device_map(run: Run) -> Iterator[Found]:
    zero = _zero3(run)
    if zero is None:
        return
    for index in range(len(run.documents)):
        if run.leaf(index, "device_map") == "auto":
            where = Path(run.documents[zero].path).name
            yield run.problem(
                index,
                "device_map",
                f'device_map="auto" places layers by hand while ZeRO-3 ({where}) shards them; '
                "the two cannot both own the placement",
                "remove device_map (let DeepSpeed place the model)",
            )
