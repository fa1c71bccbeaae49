"""A checkpoint whose token embeddings or output layer have another number of rows.

`size mismatch for model.embed_tokens.weight: copying a param with shape [100, 16] from
checkpoint, the shape in current model is [101, 16]` is a vocabulary change (tokens
added or a different tokenizer), not a new task head: those rows are what the model
learned about every token, so they must be kept and resized, never re-initialised.
"""

from __future__ import annotations

import re

from trainwreck.model import Evidence, Finding, SourceRef

FINDING_IDS: tuple[str, ...] = ("checkpoint.vocabulary",)

# Token embeddings and output layers across families: Llama/Mistral, GPT-2, BERT,
# GPT-NeoX (embed_in/embed_out), T5 (shared)
_VOCAB_PARAMS = r"(?:embed_tokens|lm_head|wte|word_embeddings|embed_in|embed_out|shared)"
_MISMATCH = re.compile(
    rf"size mismatch for (?P<param>[\w.]*{_VOCAB_PARAMS}[\w.]*): copying a param with shape "
    r"torch\.Size\(\[(?P<saved>\d+), (?P<width>\d+)\]\) from checkpoint, the shape in current "
    r"model is torch\.Size\(\[(?P<built>\d+), (?P=width)\]\)"
)
KEEP: tuple[str, ...] = (r"size mismatch for ",)


def analyze(evidence: Evidence) -> list[Finding]:
    """A `checkpoint.vocabulary` finding: rows saved vs rows built, same width."""
    for line in evidence.lines:
        match = _MISMATCH.search(line.text)
        if match is None or match["saved"] == match["built"]:
            continue
        saved, built = int(match["saved"]), int(match["built"])
        return [
            Finding(
                id="checkpoint.vocabulary",
                title=(
                    f"the vocabulary differs: {match['param']} has {saved:,} rows in the "
                    f"checkpoint and {built:,} in the model"
                ),
                category="crash",
                summary=f"{match['param']}: {saved:,} token rows saved, {built:,} built",
                evidence=(SourceRef(source=line.source, line=line.line, text=line.text),),
                values={"vocab_param": match["param"], "saved_rows": saved, "built_rows": built},
            )
        ]
    return []
