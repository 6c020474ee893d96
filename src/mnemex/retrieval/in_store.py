"""The lexical and vector channels of a backend that searches inside its database (PostgreSQL).

They stand where the in-memory indexes stand (engine.py hands them out), with the same methods,
and hold nothing: `sync` binds the caller's transaction (on this thread), ranking is one query.
The lexical ranking is the in-memory index's: the same FTS5 terms of each query word, the same
common-word pruning and FTS5's bm25() over the tenant's statistics, computed in SQL.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
import numpy.typing as npt

from mnemex.embed import Vectors, to_bytes
from mnemex.retrieval.bm25 import Docs, LexicalIndex, Ranked, common_cutoff, prune_common
from mnemex.retrieval.timeline import Share, Timeline
from mnemex.retrieval.vector import VectorIndex
from mnemex.store.base import InStoreSearch, Tx
from mnemex.store.fts_tokens import tokenizer

_NEVER = 1 << 62  # an ann_threshold never reached: the parent's in-memory vectors stay empty


class _Bound:
    """The transaction the last `sync` on this thread handed over."""

    def __init__(self) -> None:
        self._local = threading.local()

    def bind(self, tx: Tx) -> None:
        self._local.tx = tx

    def tx(self) -> InStoreSearch:
        tx = getattr(self._local, "tx", None)
        if tx is None:
            raise RuntimeError("search before sync: no transaction bound on this thread")
        return cast(InStoreSearch, tx)


class StoreVectors(VectorIndex):
    """Nearest memories by pgvector's HNSW index in the database."""

    def __init__(self, model_id: str, dim: int) -> None:
        super().__init__(model_id, dim, ann_threshold=_NEVER, snapshot=None)
        self._bound = _Bound()

    @property
    def kind(self) -> str:
        """Where the search runs."""
        return "in-store"

    def sync(self, tx: Tx, share: Share | None = None) -> None:
        """Nothing to catch up on: bind the transaction the next search on this thread uses."""
        self._bound.bind(tx)

    def search(self, query: Vectors, k: int) -> list[tuple[str, float]]:
        """The `k` nearest live memories as (id, cosine), best first."""
        vector = to_bytes(np.asarray(query, dtype=np.float32))
        return self._bound.tx().vector_search(self.model_id, self.dim, vector, k)

    def save(self) -> None:
        """Nothing is held, nothing is saved."""

    def close(self) -> None:
        """Nothing is held, nothing is saved."""


@dataclass(frozen=True, slots=True)
class StoreRanked(Ranked):
    """The best `window` matches of a query, fetched again further down when more are asked.

    `docs` are all 0 and `StoreLexicon.rows_in` maps document 0 to no timeline row, so the
    search takes the path that filters candidates through the store (or the graph's timeline)."""

    hits: list[tuple[str, float]]
    window: int  # how many were asked for: fewer came back, there are no more
    fetch: Callable[[int], list[tuple[str, float]]]

    def top(
        self, limit: int, passing: npt.NDArray[np.bool_] | None = None
    ) -> list[tuple[str, float]]:
        """The `limit` best as (id, score), best first, ties in saving order."""
        hits = self.hits
        if passing is not None:
            return [hit for hit, ok in zip(hits, passing.tolist(), strict=True) if ok][:limit]
        if limit > len(hits) >= self.window:
            hits = self.fetch(limit)
        return hits[:limit]


class StoreLexicon(LexicalIndex):
    """BM25 in SQL over the store's term vectors (store/_pg_memories.py)."""

    def __init__(self, window: int) -> None:
        super().__init__(None)
        self.window = window  # matches fetched by the first query of a search
        self._bound = _Bound()

    def sync(self, tx: Tx, share: Share | None = None) -> None:
        """Nothing to catch up on: bind the transaction the next ranking on this thread uses."""
        self._bound.bind(tx)

    def rank(self, words: Sequence[str], common_share: float) -> Ranked:
        """The memories holding any of the words, by BM25 (the words OR'ed), as bm25.py ranks."""
        tx = self._bound.tx()
        terms = tokenizer().terms(words)
        size, tokens, dfs = tx.lexicon_stats([term for each in terms for term in each])
        word_dfs = [dfs.get(each[0], 0) if each else 0 for each in terms]
        kept = set(prune_common(range(len(words)), word_dfs, common_cutoff(size, common_share)))
        weighted = [
            (term, _idf(size, dfs[term]))
            for word, each in enumerate(terms)
            if word in kept
            for term in each
            if dfs.get(term)
        ]
        avgdl = tokens / size if size else 1.0

        def fetch(limit: int) -> list[tuple[str, float]]:
            return tx.bm25_top(weighted, avgdl, limit)

        hits = fetch(self.window)
        return StoreRanked(
            docs=np.zeros(len(hits), dtype=np.int32),
            scores=np.array([score for _, score in hits], dtype=np.float64),
            ids=[memory_id for memory_id, _ in hits],
            dfs=word_dfs,
            size=size,
            hits=hits,
            window=self.window,
            fetch=fetch,
        )

    def rows_in(self, timeline: Timeline) -> Docs:
        """Document 0 (every document of a StoreRanked) has no row in the timeline."""
        return np.full(1, -1, dtype=np.int32)

    def save(self) -> None:
        """Nothing is held, nothing is saved."""

    def close(self) -> None:
        """Nothing is held, nothing is saved."""


def _idf(docs: int, held: int) -> float:
    """FTS5's inverse document frequency, as bm25.py computes it."""
    rarity = math.log((docs - held + 0.5) / (held + 0.5))
    return rarity if rarity > 0.0 else 1e-6
