"""Tools for curating the knowledge base: `kb lint`, the case suite's runner, and the
ablation that names the real cases each analyzer and code detector decides.

A development layer above `diagnose`: they run the whole pipeline on a page's
cases, so they cannot sit inside `kb`, which every stage reads.
"""
