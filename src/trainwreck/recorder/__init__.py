"""The runtime recorder: code that runs inside the user's training process.

It is the one package that imports torch at module level; torch is an optional heavy
extra, so nothing on the diagnosis path (`trainwreck diagnose`, the core install)
imports this package. Only the CLI may load it.
"""
