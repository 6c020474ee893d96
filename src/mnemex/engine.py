"""Engine: the state every tenant view of one store shares (models, indexes, caches, clock)."""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from mnemex import limits
from mnemex.analysis.analyze import Analyzer, EmbedFn
from mnemex.analysis.enrich import StoreReader
from mnemex.clock import Clock, to_micros
from mnemex.config import Settings
from mnemex.decay.curve import Decay
from mnemex.embed import Embedder, embed_all_soon, load_embedder, soon, to_bytes
from mnemex.errors import NotFoundError
from mnemex.ledger import aspects, assertion
from mnemex.ledger.phrases import PhraseVectors
from mnemex.ledger.save import WHOLE_ANCHOR
from mnemex.ledger.similarity import Similarity
from mnemex.ledger.similarity import for_embedder as similarity_for
from mnemex.models import Memory
from mnemex.retrieval.bm25 import LexicalIndex
from mnemex.retrieval.in_store import StoreLexicon, StoreVectors
from mnemex.retrieval.ppr import MemoryGraph
from mnemex.retrieval.vector import VectorIndex
from mnemex.store.api_tokens import TokenRegistry
from mnemex.store.base import Backend, Tx


class Readings:
    """The statement reader's readings (and aspect vectors) of a batch's texts, under way on
    helper threads (Engine.readings_soon)."""

    def __init__(self, texts: Sequence[str] = (), pending: Future[Any] | None = None) -> None:
        self.texts = texts
        self.pending = pending
        self.aspects: Future[Any] | None = None

    def wait(self) -> None:
        """Until the readings are in the process's cache: a save's veto then runs no model
        of its own (one sentence at a time, under the write lock)."""
        if self.pending is not None:
            self.pending.result()

    def keep(self, write: Tx, changes: set[str]) -> None:
        """Keep the readings in the store, in the write transaction; `changes`: the texts the
        ledger read a change or a correction in."""
        if self.pending is None:
            return
        self.wait()
        assertion.ReadingStore.keep(write, self.texts, changes)
        if self.aspects is not None:
            self.aspects.result()
            aspects.keep(write, self.texts)


class Engine:
    """State shared by every tenant view of one backend: settings, clock, caches and locks."""

    def __init__(self, backend: Backend, settings: Settings, clock: Clock) -> None:
        self.backend = backend
        self.settings = settings
        self.clock = clock
        self.decay = Decay.from_settings(settings)
        self.lock = threading.RLock()
        self.tokens = TokenRegistry(backend, clock)
        self._vectors: dict[str, VectorIndex] = {}
        self._graphs: dict[str, MemoryGraph] = {}
        self._lexicons: dict[str, LexicalIndex] = {}
        self.phrases = PhraseVectors(lambda: self.embedder)
        load_embedder(settings.embed_model)  # an unknown model name fails here, at open
        self.analyzer = Analyzer(settings, self._analysis_embed)

    def _analysis_embed(self) -> EmbedFn | None:
        """The embedding function analysis uses (None for a lexical-only engine)."""
        embedder = self.embedder
        return None if embedder is None else embedder.embed

    @property
    def embedder(self) -> Embedder | None:
        """The configured embedding model (loaded on first use), or None when it is "none"."""
        return load_embedder(self.settings.embed_model)

    def vector_index(self, tenant: str) -> VectorIndex | None:
        """The tenant's vector index (None for a lexical-only engine): in memory, or a handle on
        the database's own when the backend searches inside it."""
        embedder = self.embedder
        if embedder is None:
            return None
        with self.lock:
            index = self._vectors.get(tenant)
            if index is None and self.backend.searches_inside:
                index = self._vectors[tenant] = StoreVectors(embedder.model_id, embedder.dim)
            if index is None:
                index = self._vectors[tenant] = VectorIndex(
                    embedder.model_id,
                    embedder.dim,
                    ann_threshold=self.settings.ann_threshold,
                    snapshot=self._snapshot_path(
                        "vectors", f"{tenant}\0{embedder.model_id}", "json"
                    ),
                )
            return index

    def _snapshot_path(self, kind: str, key: str, suffix: str) -> Path | None:
        """Where an index is saved beside a store file: `<file>-<kind>/` (None for other stores)."""
        location = self.backend.location
        if location == ":memory:" or "://" in location:
            return None
        name = hashlib.sha256(key.encode()).hexdigest()[:16]
        return Path(f"{Path(location).expanduser()}-{kind}") / f"{name}.{suffix}"

    def drop_indexes(self, tenant: str) -> None:
        """Forget a tenant's in-memory indexes and their saved copies (after a purge: they
        still hold the purged words and vectors); the next use rebuilds them from the store."""
        with self.lock:
            self._lexicons.pop(tenant, None)
            vectors = self._vectors.pop(tenant, None)
        saved = [self._snapshot_path("lexicon", tenant, "npz")]
        if vectors is not None:
            saved.append(vectors.snapshot)
        elif self.settings.embed_model != "none" and self.embedder is not None:
            saved.append(
                self._snapshot_path("vectors", f"{tenant}\0{self.embedder.model_id}", "json")
            )
        for path in saved:
            if path is None:
                continue
            for stale in [path, *path.parent.glob(f"{path.stem}.*")]:
                with contextlib.suppress(OSError):
                    stale.unlink()

    def close(self) -> None:
        """Save indexes that changed since their last save (for the next process)."""
        with self.lock:
            indexes: list[VectorIndex | LexicalIndex] = [
                *self._vectors.values(),
                *self._lexicons.values(),
            ]
        for index in indexes:
            index.close()

    def memory_graph(self, tenant: str) -> MemoryGraph:
        """The tenant's in-memory entity and episode graph (retrieval/ppr.py)."""
        with self.lock:
            graph = self._graphs.get(tenant)
            if graph is None:
                gap_us = int(self.settings.episode_gap_minutes * 60_000_000)
                graph = MemoryGraph(self.settings.graph_mention_weight, gap_us)
                self._graphs[tenant] = graph
            return graph

    def lexical_index(self, tenant: str) -> LexicalIndex:
        """The tenant's BM25 postings in memory (retrieval/bm25.py), or a handle on the database's
        term vectors when the backend searches inside it (retrieval/in_store.py)."""
        with self.lock:
            index = self._lexicons.get(tenant)
            if index is None and self.backend.searches_inside:
                index = self._lexicons[tenant] = StoreLexicon(4 * self.settings.lexical_candidates)
            if index is None:
                index = self._lexicons[tenant] = LexicalIndex(
                    self._snapshot_path("lexicon", tenant, "npz")
                )
            return index

    def vectors_for(
        self, tx: Tx, texts: Sequence[str], hashes: Sequence[str]
    ) -> list[bytes | None]:
        """Stored-form vectors for texts: reused by content hash when known, embedded otherwise."""
        return self.vectors_soon(tx, texts, hashes)()

    def vectors_soon(
        self, tx: Tx, texts: Sequence[str], hashes: Sequence[str]
    ) -> Callable[[], list[bytes | None]]:
        """`vectors_for`, the model running on helper threads: call the result for the vectors
        (`tx` is only read before this returns)."""
        embedder = self.embedder
        if embedder is None:
            return lambda: [None] * len(texts)
        known = tx.embeddings_by_hash(embedder.model_id, hashes)
        missing = [i for i, h in enumerate(hashes) if h not in known]
        pending = embed_all_soon(embedder, [texts[i] for i in missing]) if missing else None

        def vectors() -> list[bytes | None]:
            result: list[bytes | None] = [known.get(h) for h in hashes]
            if pending is not None:
                for index, vector in zip(missing, pending.result(), strict=True):
                    result[index] = to_bytes(vector)
            return result

        return vectors

    def readings_soon(self, tx: Tx, texts: Sequence[str]) -> Readings:
        """The statement reader's readings and the aspect vectors of these texts (statements,
        not documents), the models running on helper threads for what the store lacks (`tx` is
        only read before this returns)."""
        settings = self.settings
        wanted = [t for t in texts if len(t) <= WHOLE_ANCHOR]
        if not wanted or self.embedder is None:
            return Readings()
        if not settings.ledger_resolve and settings.assertion_veto <= 0:
            return Readings()
        assertion.ReadingStore.load(tx, wanted)
        readings = Readings(wanted, soon(assertion.probabilities, wanted))
        if settings.ledger_resolve and settings.aspect_encoder:
            aspects.load(tx, wanted)  # the aspect vectors serve read-time resolution alone
            readings.aspects = soon(aspects.vectors, wanted)
        return readings

    def scored(self, memory: Memory, now_us: int) -> Memory:
        """The memory with its temporal score as of `now_us` (scores are never stored)."""
        last_used = to_micros(memory.last_used)
        scores = self.decay.scores_at(
            [memory.use_count],
            [last_used],
            [memory.strength],
            now_us,
            [memory.kind],
            [memory.stability],
        )
        memory.score = float(scores[0])
        return memory

    def store_reader(self, tenant: str) -> StoreReader:
        """What analysis reads of a tenant's store (entity links, near duplicates)."""
        return StoreReader(
            tenant, lambda: self.backend.read(tenant), self.embedder, self.vector_index(tenant)
        )

    def similarity(self) -> Similarity:
        """How relation names are compared (embeddings when a model is configured)."""
        return similarity_for(self.embedder)


def require(tx: Tx, memory_id: str) -> Memory:
    """The memory `memory_id` of the transaction's tenant, or NotFoundError."""
    limits.check_text(memory_id, "id", 100)
    memory = tx.get_memories([memory_id]).get(memory_id)
    if memory is None:
        raise NotFoundError("memory", memory_id)
    return memory
