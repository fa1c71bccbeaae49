"""Rule (g): the report names no framework or hardware the run's context does not have.

A ZeRO-3 fix for a run without DeepSpeed, `TrainingArguments(bf16=True)` for a plain
PyTorch script, `torch.backends.cudnn` for a JAX user, autocast on `'cuda'` in a CPU
run (issue 18). The context is the engine's (`Diagnosis.context`, built by
`trainwreck.context` from all the evidence); a framework a present one is built on
counts as present (vLLM runs on PyTorch). A fix that says it brings a package in
("(requires bitsandbytes)") names it honestly, in its changes and commands too, and a
generic page names its family's members as examples ("(e.g. flash-attn, xformers)";
`fixes.named`). With no framework seen at all there is nothing to hold the report to,
and the framework check is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from trainwreck.context.frameworks import with_foundations
from trainwreck.fixes.named import ADVICE_NAMES, brought_in, named
from trainwreck.model import Diagnosis
from trainwreck.report.audit.base import Audited, AuditFinding

# Code that runs on one kind of accelerator; ROCm builds answer to the CUDA names.
_CUDA_CODE = re.compile(r"""['"]cuda(?::\d)?['"]|\.cuda\(\)|\btorch\.cuda\.|\bCUDA_\w+""")
_NOT_CUDA = ("cpu", "mps", "tpu")


def present(diagnosis: Diagnosis) -> set[str]:
    """The frameworks the run's context has, with what they run on."""
    return with_foundations(diagnosis.context.frameworks)


def _texts(diagnosis: Diagnosis) -> Iterator[tuple[str, str, bool, set[str]]]:
    """(where, text, is code, what it may bring in) of everything a framework may be named in."""
    for index, hypothesis in enumerate(diagnosis.hypotheses):
        yield f"hypotheses[{index}].title", hypothesis.title, False, set()
    top = diagnosis.hypotheses[0] if diagnosis.hypotheses else None
    for number, fix in enumerate(top.fixes if top else ()):
        brings = brought_in(fix.action)
        yield f"hypotheses[0].fixes[{number}].action", fix.action, False, brings
        for index, change in enumerate(fix.changes):
            code = f"{change.path} {change.after}"
            yield f"hypotheses[0].fixes[{number}].changes[{index}]", code, True, brings
        for index, command in enumerate(fix.commands):
            yield f"hypotheses[0].fixes[{number}].commands[{index}]", command, True, brings
    brings_any = {name for fix in (top.fixes if top else ()) for name in brought_in(fix.action)}
    for index, block in enumerate(diagnosis.consolidated):  # the top's fixes, gathered
        yield f"consolidated[{index}]", block.text, True, brings_any
    for index, warning in enumerate(diagnosis.warnings):
        yield f"warnings[{index}]", warning, False, set()


def frameworks_in_context(report: Audited) -> list[AuditFinding]:
    """(g) Each framework named is in the run's context; CUDA code only on a CUDA run."""
    d = report.diagnosis
    if d is None:
        return []
    have, hardware = present(d), d.context.hardware
    found = []
    for where, text, is_code, brings in _texts(d):
        absent = sorted(named(text) - have - brings, key=list(ADVICE_NAMES).index)
        if have and absent:
            why = f"names {', '.join(absent)}, which the run's context does not have"
            found.append(AuditFinding("framework-not-in-context", where, why))
        if is_code and hardware in _NOT_CUDA and (match := _CUDA_CODE.search(text)):
            why = f"{match.group(0)!r} on a {hardware} run"
            found.append(AuditFinding("framework-not-in-context", where, why))
    return found
