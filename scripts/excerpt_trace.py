"""Cut one profiled step out of a public torch.profiler trace, for a small test fixture.

    python scripts/excerpt_trace.py rank0.json.gz 551 out.pt.trace.json.gz

Keeps the header (device properties, distributed info), every metadata event (`ph: M`,
process and thread names) and every other event that starts inside `ProfilerStep#<step>`,
unchanged; writes one event per line, gzipped. The cut is a real trace's own events:
only those of the other steps are left out.
"""

from __future__ import annotations

import gzip
import json
import sys


def excerpt(trace: dict[str, object], step: int) -> dict[str, object]:
    """The trace with only the metadata and the events inside ProfilerStep#<step>."""
    events = trace["traceEvents"]
    assert isinstance(events, list)
    spans = [
        event
        for event in events
        if event.get("name") == f"ProfilerStep#{step}" and event.get("cat") == "user_annotation"
    ]
    if not spans:
        raise SystemExit(f"no ProfilerStep#{step} in the trace")
    start, end = spans[0]["ts"], spans[0]["ts"] + spans[0]["dur"]
    kept = [
        event
        for event in events
        if event.get("ph") == "M" or start <= event.get("ts", start - 1) <= end
    ]
    header = {key: value for key, value in trace.items() if key != "traceEvents"}
    return {**header, "traceEvents": kept}


def write(trace: dict[str, object], path: str) -> None:
    """The header keys first, then the events one per line (what the reader streams)."""
    events = trace["traceEvents"]
    assert isinstance(events, list)
    header = json.dumps({key: value for key, value in trace.items() if key != "traceEvents"})
    body = ",\n".join(json.dumps(event) for event in events)
    opening = "{" if header == "{}" else f"{header[:-1]}, "
    text = f'{opening}"traceEvents": [\n{body}\n]}}\n'
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write(text)


def main(argv: list[str]) -> int:
    source, step, target = argv
    with gzip.open(source, "rt", encoding="utf-8") as handle:
        trace = json.load(handle)
    write(excerpt(trace, int(step)), target)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
