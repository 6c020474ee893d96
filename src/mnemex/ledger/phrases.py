"""Phrase vectors kept in the store: the values and relation names the ledger compares.

A save reads them from the store before the model runs (`reading`), embeds only what the store
lacks, and keeps what it embedded in its own write transaction (`keep`), so another process
reads them instead of embedding them again. Phrases are stored by model and a digest of the
text. One object per engine, which remembers for each tenant the digests it knows the store
holds, so a save does not write them again.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from functools import partial

from mnemex.embed import Embedder, Vectors, from_bytes, to_bytes
from mnemex.ledger.similarity import Collected, for_embedder
from mnemex.store.base import Tx

KNOWN_LIMIT = 100_000  # digests remembered per tenant; past it, forgotten and rewritten once each


@functools.lru_cache(maxsize=20_000)
def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class PhraseVectors:
    """The ledger's phrase vectors in the store, for one engine's embedding model."""

    def __init__(self, embedder: Callable[[], Embedder | None]) -> None:
        self._embedder = embedder
        self._known: dict[str, set[str]] = {}
        self._lock = threading.Lock()

    def collecting(self) -> AbstractContextManager[Collected]:
        """A block whose comparisons are collected, for `keep` to store what the store lacks."""
        return for_embedder(self._embedder()).collecting()

    def reading(self, tx: Tx) -> AbstractContextManager[None]:
        """A block in which phrase vectors are read from the store (through `tx`: use it
        inside that transaction) before the model runs."""
        return for_embedder(self._embedder()).reading(partial(self._stored, tx))

    def _stored(self, tx: Tx, texts: Sequence[str]) -> dict[str, Vectors]:
        """The store's vectors of these phrases, by phrase (those it has for the model)."""
        embedder = self._embedder()
        if embedder is None or not texts:
            return {}
        digests = {_digest(text): text for text in texts}
        found = tx.phrase_vectors(embedder.model_id, list(digests))
        return {
            digests[digest]: from_bytes(blob, embedder.dim)
            for digest, blob in found.items()
            if len(blob) == 4 * embedder.dim
        }

    def keep(self, tx: Tx, phrases: Collected) -> None:
        """Store the phrase vectors a save compared that the store lacks, in its write
        transaction, so another process reads them instead of embedding them again."""
        embedder = self._embedder()
        if embedder is None:
            return
        with self._lock:
            known = self._known.setdefault(tx.tenant, set())
            if len(known) > KNOWN_LIMIT:
                known.clear()
        fresh = {_digest(text): vector for text, vector in phrases.unstored().items()}
        rows = [
            (digest, to_bytes(vector)) for digest, vector in fresh.items() if digest not in known
        ]
        if rows:
            tx.put_phrase_vectors(embedder.model_id, rows)
        with self._lock:
            known.update(fresh)
            known.update(_digest(text) for text in phrases.stored)
