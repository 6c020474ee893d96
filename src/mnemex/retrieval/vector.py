"""The vector channel: exact cosine search over an in-memory matrix of one tenant's live memories.

The matrix is loaded from the store on first use and kept in step with the change log, so saves,
updates and forgets by this process or by any other process sharing the file are seen by the
next search.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from mnemex.retrieval.embed import Vectors, from_bytes
from mnemex.store.base import Tx

_GROWTH = 1.5
_SYNC_BATCH = 5_000


class VectorIndex:
    """Unit vectors by memory id; removed rows are zeroed and compacted away now and then."""

    def __init__(self, model_id: str, dim: int) -> None:
        self.model_id = model_id
        self.dim = dim
        self.seq = -1  # last change-log sequence applied; -1: never loaded
        self._ids: list[str | None] = []
        self._rows: dict[str, int] = {}
        self._matrix: Vectors = np.zeros((0, dim), dtype=np.float32)
        self._dead = 0
        self.lock = threading.RLock()

    def __len__(self) -> int:
        return len(self._rows)

    def nbytes(self) -> int:
        """Resident bytes of the matrix (for memory accounting)."""
        return int(self._matrix.nbytes)

    def sync(self, tx: Tx) -> None:
        """Apply every change since the last sync (a full load the first time or after a gap)."""
        with self.lock:
            newest = tx.last_change()
            if newest == self.seq:
                return
            if self.seq < 0 or tx.oldest_change() > self.seq + 1:
                self._reload(tx, newest)
                return
            while self.seq < newest:
                changes = tx.changes_since(self.seq, _SYNC_BATCH)
                if not changes:
                    break
                touched = list(dict.fromkeys(change.memory_id for change in changes))
                current = tx.live_embeddings(touched, self.model_id)
                for memory_id in touched:
                    blob = current.get(memory_id)
                    if blob is None:
                        self.remove(memory_id)
                    else:
                        self.put(memory_id, from_bytes(blob, self.dim))
                self.seq = changes[-1].seq
            self.seq = newest

    def _reload(self, tx: Tx, newest: int) -> None:
        ids: list[str] = []
        blobs: list[bytes] = []
        for memory_id, blob in tx.iter_embeddings(self.model_id):
            ids.append(memory_id)
            blobs.append(blob)
        flat = np.frombuffer(b"".join(blobs), dtype="<f4")
        self._matrix = flat.reshape(len(ids), self.dim).astype(np.float32, copy=True)
        self._ids = list(ids)
        self._rows = {memory_id: row for row, memory_id in enumerate(ids)}
        self._dead = 0
        self.seq = newest

    def put(self, memory_id: str, vector: Vectors) -> None:
        """Add or replace one memory's vector."""
        with self.lock:
            row = self._rows.get(memory_id)
            if row is None:
                row = len(self._ids)
                if row >= self._matrix.shape[0]:
                    capacity = max(16, int(self._matrix.shape[0] * _GROWTH) + 1)
                    grown = np.zeros((capacity, self.dim), dtype=np.float32)
                    grown[: self._matrix.shape[0]] = self._matrix
                    self._matrix = grown
                self._ids.append(memory_id)
                self._rows[memory_id] = row
            self._matrix[row] = vector

    def put_many(self, items: Iterable[tuple[str, Vectors]]) -> None:
        """Add or replace several vectors."""
        with self.lock:
            for memory_id, vector in items:
                self.put(memory_id, vector)

    def remove(self, memory_id: str) -> None:
        """Drop a memory (forgotten, archived, deleted or re-embedded elsewhere)."""
        with self.lock:
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
        """The `k` most similar live memories as (id, cosine), best first."""
        with self.lock:
            used = len(self._ids)
            if not self._rows or k <= 0:
                return []
            sims: npt.NDArray[np.float32] = self._matrix[:used] @ query
            k = min(k, used)
            top = np.argpartition(-sims, k - 1)[:k]
            top = top[np.argsort(-sims[top], kind="stable")]
            hits = []
            for row in top.tolist():
                memory_id = self._ids[row]
                if memory_id is not None:
                    hits.append((memory_id, float(sims[row])))
            return hits
