"""The vector channel: one tenant's live memories as unit vectors, searched by cosine.

Small tenants are searched exactly over an in-memory float32 matrix; from `ann_threshold`
memories on, an HNSW graph (retrieval/ann.py) takes over, because a full scan then costs more
than embedding the query. Either way the index is loaded from the store on first use and kept
in step with the change log, so saves, updates and forgets by this process or by any other
process sharing the file are seen by the next search.
"""

from __future__ import annotations

import contextlib
import ctypes
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
import numpy.typing as npt

from mnemex.embed import Vectors, from_bytes
from mnemex.retrieval import changelog
from mnemex.retrieval.ann import AnnVectors
from mnemex.retrieval.timeline import Share, unshared
from mnemex.store.base import Tx

# Exact search below this many memories. A scan costs ~0.8 ms per 1,000 rows on a busy 2-core
# machine where a graph search for 100 neighbours costs ~2.5 ms at 10,000 (and grows with
# log n): past ~5,000 rows the graph is cheaper, and its recall@10 there is ~0.99.
ANN_THRESHOLD = 5_000
_GROWTH = 1.5
_SYNC_BATCH = 5_000
_LOAD_BATCH = 10_000  # rows decoded at a time on a full load: the peak stays one batch


def release_freed_memory() -> None:
    """Hand the heap freed by a graph build back to the OS (glibc only).

    A build churns through batches of row blobs and float32 copies and grows the graph by
    reallocation; glibc keeps the freed pages, so a process that built a 100k graph stayed at
    ~3.1 KB per memory where one that loaded the saved graph used ~1.2 KB. malloc_trim returns them.
    """
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL("libc.so.6").malloc_trim(0)


class ExactVectors:
    """Unit vectors by memory id in a matrix; removed rows are zeroed and compacted now and then."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._ids: list[str | None] = []
        self._rows: dict[str, int] = {}
        self._matrix: Vectors = np.zeros((0, dim), dtype=np.float32)
        self._dead = 0

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._rows

    def nbytes(self) -> int:
        """Resident bytes of the matrix."""
        return int(self._matrix.nbytes)

    def _grow(self, needed: int) -> None:
        if needed > self._matrix.shape[0]:
            capacity = max(16, needed, int(self._matrix.shape[0] * _GROWTH) + 1)
            grown = np.zeros((capacity, self.dim), dtype=np.float32)
            grown[: len(self._ids)] = self._matrix[: len(self._ids)]
            self._matrix = grown

    def put_many(self, items: Iterable[tuple[str, Vectors]]) -> None:
        """Add or replace vectors."""
        for memory_id, vector in items:
            row = self._rows.get(memory_id)
            if row is None:
                row = len(self._ids)
                self._grow(row + 1)
                self._ids.append(memory_id)
                self._rows[memory_id] = row
            self._matrix[row] = vector

    def add_matrix(self, ids: list[str], matrix: Vectors) -> None:
        """Bulk-add memories not yet held (a full load)."""
        start = len(self._ids)
        self._grow(start + len(ids))
        self._matrix[start : start + len(ids)] = matrix
        self._ids.extend(ids)
        self._rows.update((memory_id, start + offset) for offset, memory_id in enumerate(ids))

    def remove(self, memory_id: str) -> None:
        """Drop a memory's row."""
        row = self._rows.pop(memory_id, None)
        if row is None:
            return
        self._ids[row] = None
        self._matrix[row] = 0.0
        self._dead += 1
        if self._dead > 1_000 and self._dead > len(self._rows) // 4:
            self._compact()

    def _compact(self) -> None:
        keep = [row for row, memory_id in enumerate(self._ids) if memory_id is not None]
        self._matrix = np.ascontiguousarray(self._matrix[keep])
        self._ids = [self._ids[row] for row in keep]
        self._rows = {memory_id: row for row, memory_id in enumerate(self._ids) if memory_id}
        self._dead = 0

    def search(self, query: Vectors, k: int) -> list[tuple[str, float]]:
        """The `k` most similar memories as (id, cosine), best first."""
        used = len(self._ids)
        if not self._rows or k <= 0:
            return []
        # einsum, not `@`: a matrix-vector product is memory-bound, and OpenBLAS's threads made
        # it 3-4x slower on a busy 2-core machine (measured: 25-38 ms vs 8 ms at 10,000 rows).
        sims: npt.NDArray[np.float32] = np.einsum(
            "ij,j->i", self._matrix[:used], query, optimize=False
        )
        k = min(k, used)
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top], kind="stable")]
        hits = []
        for row in top.tolist():
            memory_id = self._ids[row]
            if memory_id is not None:
                hits.append((memory_id, float(sims[row])))
        return hits

    def items(self) -> Iterator[tuple[str, Vectors]]:
        """Every (id, vector) held."""
        for memory_id, row in self._rows.items():
            yield memory_id, self._matrix[row]


class VectorIndex:
    """A tenant's vectors in step with the store: exact search while small, HNSW when large.

    `snapshot` (a file store's `<file>-vectors/<tenant>.json`) is where the graph is saved after
    a build and on close, with the change-log position it reflects; a new process loads it and
    applies the changes since, instead of rebuilding. A snapshot also names a few of its memory
    ids: when none of them is in the store, the file was replaced and the graph is rebuilt.
    """

    def __init__(
        self,
        model_id: str,
        dim: int,
        *,
        ann_threshold: int = ANN_THRESHOLD,
        snapshot: Path | None = None,
    ) -> None:
        self.model_id = model_id
        self.dim = dim
        self.ann_threshold = ann_threshold
        self.snapshot = snapshot
        self.seq = -1  # last change-log sequence applied; -1: never loaded
        self._vectors: ExactVectors | AnnVectors = ExactVectors(dim)
        self._unsaved = 0  # changes applied to the graph since it was last saved
        self.restored = False  # True when the graph came from a snapshot, not a build
        self.passed_share = 1.0  # of the last default search's neighbours, the live and current
        self._share: Share = unshared
        self.lock = threading.RLock()

    def __len__(self) -> int:
        return len(self._vectors)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._vectors

    @property
    def kind(self) -> str:
        """How the next search will run: "exact" or "ann"."""
        return "ann" if isinstance(self._vectors, AnnVectors) else "exact"

    def nbytes(self) -> int:
        """Resident bytes of the vectors (and graph), for memory accounting."""
        return self._vectors.nbytes()

    def sync(self, tx: Tx, share: Share | None = None) -> None:
        """Apply every change since the last sync (a full load the first time or after a gap).

        `share` maps an id to the copy the graph's timeline holds: one string per memory.
        """
        with self.lock:
            self._share = share or unshared
            newest = tx.last_change()
            if newest == self.seq:
                return
            if self.seq < 0 and not self._restore(tx):
                self._reload(tx, newest)
                return
            if tx.oldest_change() > self.seq + 1:
                self._reload(tx, newest)
                return
            while self.seq < newest:
                changes = tx.changes_since(self.seq, _SYNC_BATCH)
                if not changes:
                    break
                self._apply(tx, list(dict.fromkeys(change.memory_id for change in changes)))
                self._unsaved += len(changes)
                self.seq = changes[-1].seq
            self.seq = newest
            self._rebalance()
            if self._unsaved > max(1_000, len(self._vectors) // 10):
                self.save()

    def _apply(self, tx: Tx, touched: list[str]) -> None:
        """Bring these memories' vectors up to date (removed when no longer live or embedded)."""
        current = tx.live_embeddings(touched, self.model_id)
        for memory_id in touched:
            if memory_id not in current:
                self._vectors.remove(memory_id)
        share = self._share
        self._vectors.put_many(
            (share(memory_id), from_bytes(blob, self.dim)) for memory_id, blob in current.items()
        )

    def _restore(self, tx: Tx) -> bool:
        """Start from the saved graph when it belongs to this store and the log covers the gap."""
        if self.snapshot is None or not self.snapshot.exists():
            return False
        loaded = AnnVectors.load(self.snapshot, self.dim, self._share)
        if loaded is None:
            return False
        graph, state = loaded
        seq = int(state.get("seq", -1))
        if state.get("model") != self.model_id or not changelog.resumable(
            tx, seq, state.get("sample", [])
        ):
            return False
        graph.removed = int(state.get("removed", 0))
        self._vectors = graph
        self.seq = seq
        self.restored = True
        return True

    def _reload(self, tx: Tx, newest: int) -> None:
        """Load every live vector in batches; past the threshold they go straight to the graph."""
        self._vectors = ExactVectors(self.dim)
        self.restored = False
        ids: list[str] = []
        blobs: list[bytes] = []
        for memory_id, blob in tx.iter_embeddings(self.model_id):
            ids.append(self._share(memory_id))
            blobs.append(blob)
            if len(ids) == _LOAD_BATCH:
                self._load_batch(ids, blobs)
                ids, blobs = [], []
        self._load_batch(ids, blobs)
        self.seq = newest
        if isinstance(self._vectors, AnnVectors):
            self.save()
            release_freed_memory()

    def _load_batch(self, ids: list[str], blobs: list[bytes]) -> None:
        if not ids:
            return
        flat = np.frombuffer(b"".join(blobs), dtype="<f4")
        matrix = flat.reshape(len(ids), self.dim).astype(np.float32)
        if isinstance(self._vectors, ExactVectors) and (
            len(self._vectors) + len(ids) >= self.ann_threshold
        ):
            self._vectors = self._build_graph()
        self._vectors.add_matrix(ids, matrix)

    def _build_graph(self) -> AnnVectors:
        """A fresh graph holding every vector now held (exact rows or an older graph's nodes)."""
        graph = AnnVectors(self.dim)
        pairs = list(self._vectors.items())
        if pairs:
            graph.add_matrix([m for m, _ in pairs], np.stack([v for _, v in pairs]))
        return graph

    def _rebalance(self) -> None:
        """Switch to a graph past the threshold, back below half of it; rebuild a worn graph."""
        vectors = self._vectors
        size = len(vectors)
        if isinstance(vectors, ExactVectors) and size >= self.ann_threshold:
            self._vectors = self._build_graph()
            self.save()
        elif isinstance(vectors, AnnVectors) and size < self.ann_threshold // 2:
            exact = ExactVectors(self.dim)
            exact.put_many(vectors.items())
            self._vectors = exact
        elif isinstance(vectors, AnnVectors) and vectors.removed > max(1_000, size // 4):
            # Removed nodes still cost memory and hops until the graph is rebuilt.
            self._vectors = self._build_graph()
            self.save()
            release_freed_memory()

    def save(self) -> None:
        """Save the graph for the next process (nothing to do for exact search or no file)."""
        with self.lock:
            if self.snapshot is None or not isinstance(self._vectors, AnnVectors):
                return
            state = {
                "model": self.model_id,
                "seq": self.seq,
                "sample": self._vectors.sample(),
                "removed": self._vectors.removed,
            }
            try:
                self._vectors.save(self.snapshot, state)
            except (OSError, RuntimeError):
                return  # a read-only directory, a full disk: the next process rebuilds the graph
            self._unsaved = 0

    def close(self) -> None:
        """Save changes applied since the last save, so the next process starts from here."""
        with self.lock:
            if self._unsaved:
                self.save()

    def put(self, memory_id: str, vector: Vectors) -> None:
        """Add or replace one memory's vector."""
        self.put_many([(memory_id, vector)])

    def put_many(self, items: Iterable[tuple[str, Vectors]]) -> None:
        """Add or replace several vectors."""
        with self.lock:
            self._vectors.put_many(items)

    def remove(self, memory_id: str) -> None:
        """Drop a memory (forgotten, archived, deleted or re-embedded elsewhere)."""
        with self.lock:
            self._vectors.remove(memory_id)

    def search(self, query: Vectors, k: int) -> list[tuple[str, float]]:
        """The `k` most similar live memories as (id, cosine), best first (approximate: graph)."""
        with self.lock:
            return self._vectors.search(query, k)
