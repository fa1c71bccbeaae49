"""The runtime recorder: code that runs beside or inside the user's training.

`run` wraps the training command (no torch: it only starts a process and keeps what it
prints); `watch`, `writer` and `provenance` run inside the training process and import
torch, an optional heavy extra, so nothing on the diagnosis path (`trainwreck diagnose`,
the core install) imports this package. Only the CLI and `trainwreck.watch` load it;
`hf_callback` also imports transformers and is loaded only by the user's own training script.
"""
