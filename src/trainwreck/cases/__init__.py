"""The case memory: confirmed real failures, searched by what their evidence looks like.

Pages are the curated head of the knowledge; most failures a user meets are a
specific bug a maintainer already explained in one thread. The store keeps
those threads (the error lines that identify each, its confirmed cause and fix)
and `similar` finds the ones this run's evidence resembles.
"""

from __future__ import annotations

from trainwreck.cases.match import CaseMemory, described_pages, load_memory, similar
from trainwreck.cases.records import CaseRecord

__all__ = ["CaseMemory", "CaseRecord", "described_pages", "load_memory", "similar"]
