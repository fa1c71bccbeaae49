"""Tools for curating the knowledge base: `kb lint` and the case suite's runner.

A development layer above `diagnose`: they run the whole pipeline on a page's
cases, so they cannot sit inside `kb`, which every stage reads.
"""
