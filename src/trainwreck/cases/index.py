"""Find the records whose identifying words a run's evidence shares.

An inverted index (word -> records holding it) over each record's evidence
lines, each word weighted by its rarity across the store (inverse document
frequency): `RuntimeError` and `torch` say little, `use_multi_rank_bucket_allreduce`
says a lot. A record's similarity to a run is, line by line, the share of the
record line's weight found in one line of the run (so a record line is not
assembled from words scattered over a long log), discounted while the words
shared are not rare: a boilerplate message that many records print (the CUDA
out-of-memory text, a NumPy warning every reproduction shows) says the failure
family, not which of its causes this is.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from trainwreck.cases.records import CaseRecord, thread_key
from trainwreck.cases.split import lines_of

# A word is rare when at most this share of the records holds it (and at least
# RARE_MIN_RECORDS may): a bug's own API name or message fragment, shared by the few
# threads about that bug.
RARE_SHARE = 0.01
RARE_MIN_RECORDS = 3
# Rare-word weight shared before a match counts in full: about three words found in
# one record in a hundred or fewer (idf = ln(1 + 100) ~ 4.6 each). A single rare word
# shared by chance leaves a record well below a close match.
SPECIFIC_WEIGHT = 14.0
# A record line counts as matched (and is quoted) when this share of its weight is
# in one line of the run's evidence.
LINE_MATCH = 0.6
CANDIDATES = 200  # records scored line by line, picked by their rare words shared


@dataclass(frozen=True)
class Scored:
    """A record, how similar it is to the run, and its lines that matched."""

    record: CaseRecord
    store: str
    similarity: float
    lines: tuple[str, ...]
    query: tuple[int, ...]  # which query lines matched them


@dataclass(frozen=True)
class _Entry:
    record: CaseRecord
    store: str
    lines: tuple[tuple[str, frozenset[str]], ...]
    vocabulary: frozenset[str]


def _entry(record: CaseRecord, store: str) -> _Entry:
    lines = lines_of(record.evidence)
    vocabulary = frozenset().union(*(w for _, w in lines)) if lines else frozenset()
    return _Entry(record, store, lines, vocabulary)


@dataclass(frozen=True)
class _Weights:
    """Each word's weight (idf) and rarity, over the records a search may return."""

    idf: Mapping[str, float]
    rare: frozenset[str]

    def mass(self, found: Iterable[str]) -> float:
        # fsum: a word set's iteration order follows the process's string hash seed, and a
        # plain sum's last bits with it, which could tip a line across LINE_MATCH
        return math.fsum(self.idf.get(word, 0.0) for word in found)


def _weights(counts: Mapping[str, int], total: int) -> _Weights:
    most = max(RARE_MIN_RECORDS, RARE_SHARE * total)
    idf = {word: math.log(1 + total / n) for word, n in counts.items() if n > 0}
    return _Weights(idf, frozenset(word for word, n in counts.items() if 0 < n <= most))


class CaseIndex:
    """Records indexed by the words of their evidence lines.

    Every store searched is one index, so a word's rarity is judged against all
    the records a run is compared with (a team's ten records alone would make
    every word look rare). Each record keeps the name of its store. A search can
    leave threads out (a case evaluated against the others); the words' weights
    are then counted without them, as if they had never been indexed.
    """

    def __init__(self, stores: Iterable[tuple[str, Iterable[CaseRecord]]]) -> None:
        self.entries = [_entry(record, store) for store, records in stores for record in records]
        postings: dict[str, list[int]] = defaultdict(list)
        for number, entry in enumerate(self.entries):
            for word in entry.vocabulary:
                postings[word].append(number)
        self.postings = dict(postings)
        self.counts = {word: len(ids) for word, ids in postings.items()}
        self.weights = _weights(self.counts, len(self.entries))

    def left_out(self, exclude: frozenset[str]) -> frozenset[int]:
        """The entries of the threads (`thread_key`) or record ids in `exclude`."""
        if not exclude:
            return frozenset()
        return frozenset(
            n
            for n, e in enumerate(self.entries)
            if thread_key(e.record.source) in exclude or thread_key(e.record.id) in exclude
        )

    def _without(self, skipped: frozenset[int]) -> _Weights:
        if not skipped:
            return self.weights
        counts = dict(self.counts)
        for number in skipped:
            for word in self.entries[number].vocabulary:
                counts[word] -= 1
        return _weights(counts, len(self.entries) - len(skipped))

    def search(
        self,
        query: Sequence[frozenset[str]],
        limit: int,
        *,
        specific: bool = True,
        exclude: frozenset[str] = frozenset(),
    ) -> list[Scored]:
        """The `limit` records most similar to evidence lines given as word sets.

        `exclude` holds threads (`thread_key`) or record ids left out. Without `specific` (a
        person searching by words), the rare-word discount is left out: records
        are ranked by the share of their lines' weight found.
        """
        skipped = self.left_out(exclude)
        weights = self._without(skipped)
        seen = frozenset().union(*query) if query else frozenset()
        shared: dict[int, float] = defaultdict(float)
        for word in sorted(seen & weights.rare if specific else seen):  # a fixed sum order
            for number in self.postings.get(word, ()):
                if number not in skipped:
                    shared[number] += weights.idf.get(word, 0.0)
        picked = sorted(shared, key=lambda n: -shared[n])[:CANDIDATES]
        scored = [self._scored(number, query, weights, specific) for number in picked]
        scored.sort(key=lambda s: (-s.similarity, s.record.id))
        return [s for s in scored if s.similarity > 0][:limit]

    def _scored(
        self, number: int, query: Sequence[frozenset[str]], weights: _Weights, specific: bool
    ) -> Scored:
        """Line-by-line coverage of the record by the run, times its rare-word specificity."""
        entry = self.entries[number]
        total = covered = rare = 0.0
        matched: list[str] = []
        used: list[int] = []
        for raw, line_words in entry.lines:
            weight = weights.mass(line_words)
            best = max(range(len(query)), key=lambda i: weights.mass(line_words & query[i]))
            shared = line_words & query[best]
            total += weight
            covered += weights.mass(shared)
            rare = max(rare, weights.mass(shared & weights.rare))
            if weight and weights.mass(shared) / weight >= LINE_MATCH:
                matched.append(raw)
                used.append(best)
        share = covered / total if total else 0.0
        similarity = share * min(1.0, rare / SPECIFIC_WEIGHT) if specific else share
        return Scored(
            entry.record,
            entry.store,
            round(similarity, 4),
            tuple(matched),
            tuple(dict.fromkeys(used)),
        )
