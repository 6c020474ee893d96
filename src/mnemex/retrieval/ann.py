"""Approximate nearest neighbours for large tenants: an HNSW graph (usearch) over f16 vectors.

Above the exact-search threshold a scan of every vector costs more than the query embedding, so
the vector channel switches to this graph: search cost grows with log(n), not n. Vectors are
kept as float16 inside the graph (768 bytes for 384 dimensions, half of float32; usearch's int8
scales by 127 and loses too much on unit vectors, whose components are mostly below 0.1). The
graph can be saved beside the store file so a new process need not rebuild it (see vector.py).
usearch is imported only when a tenant grows this big.
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from mnemex.embed import Vectors
from mnemex.retrieval import changelog

# HNSW parameters (usearch defaults are 16 / 128 / 64): 16 links per node is the usual balance
# of memory and recall at this dimension; the search beam of 128 (the vector channel asks for
# 100 candidates, so it rarely matters) keeps recall@10 near 0.99 on MiniLM vectors.
CONNECTIVITY = 16
EXPANSION_ADD = 128
EXPANSION_SEARCH = 128
FORMAT = 1  # of the saved sidecar; another value means rebuild


def _index_class() -> Any:
    """usearch's Index, imported after onnxruntime: importing onnxruntime second segfaults
    (usearch 2.26 with onnxruntime 1.32), and the query embedder may be loaded later."""
    with contextlib.suppress(ImportError):
        import onnxruntime  # noqa: F401
    from usearch.index import Index

    return Index


class AnnVectors:
    """Unit vectors by memory id in an HNSW graph; a removed memory leaves the graph at once."""

    def __init__(self, dim: int, index: Any = None, ids: list[str | None] | None = None) -> None:
        self.dim = dim
        self._index: Any = index or _index_class()(
            ndim=dim,
            metric="cos",
            dtype="f16",
            connectivity=CONNECTIVITY,
            expansion_add=EXPANSION_ADD,
            expansion_search=EXPANSION_SEARCH,
        )
        self._ids: list[str | None] = ids or []  # graph key -> memory id; keys never reused
        self._keys = {memory_id: key for key, memory_id in enumerate(self._ids) if memory_id}
        self.removed = 0  # nodes removed since the graph was built

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, memory_id: object) -> bool:
        return memory_id in self._keys

    def nbytes(self) -> int:
        """Resident bytes of the graph and its vectors, as usearch accounts them."""
        return int(self._index.memory_usage)

    def put_many(self, items: Iterable[tuple[str, Vectors]]) -> None:
        """Add or replace vectors; a replaced memory gets a fresh key (the old node is removed)."""
        fresh: list[int] = []
        rows: list[Vectors] = []
        for memory_id, vector in items:
            self.remove(memory_id)
            key = len(self._ids)
            self._ids.append(memory_id)
            self._keys[memory_id] = key
            fresh.append(key)
            rows.append(vector)
        if fresh:
            matrix = np.asarray(np.stack(rows), dtype=np.float32)
            self._index.add(np.asarray(fresh, dtype=np.uint64), matrix, threads=1)

    def add_matrix(self, ids: list[str], matrix: Vectors) -> None:
        """Bulk-add memories not yet held (a build): one call, so usearch can use every core."""
        start = len(self._ids)
        keys = np.arange(start, start + len(ids), dtype=np.uint64)
        self._ids.extend(ids)
        self._keys.update((memory_id, start + offset) for offset, memory_id in enumerate(ids))
        if ids:
            self._index.add(keys, np.asarray(matrix, dtype=np.float32))

    def remove(self, memory_id: str) -> None:
        """Drop a memory's node, if it has one."""
        key = self._keys.pop(memory_id, None)
        if key is not None:
            self._ids[key] = None
            self._index.remove(key)
            self.removed += 1

    def search(self, query: Vectors, k: int) -> list[tuple[str, float]]:
        """About the `k` most similar memories as (id, cosine), best first."""
        if not self._keys or k <= 0:
            return []
        found = self._index.search(np.asarray(query, dtype=np.float32), min(k, len(self._keys)))
        hits = []
        for key, distance in zip(found.keys.tolist(), found.distances.tolist(), strict=True):
            memory_id = self._ids[key]
            if memory_id is not None:
                hits.append((memory_id, 1.0 - float(distance)))
        return hits

    def items(self) -> Iterable[tuple[str, Vectors]]:
        """Every (id, vector) held, as float32 (to rebuild, or to fall back to exact search)."""
        ids = list(self._keys)
        if not ids:
            return []
        keys = np.asarray([self._keys[i] for i in ids], dtype=np.uint64)
        matrix = np.asarray(self._index.get(keys), dtype=np.float32)
        return zip(ids, matrix, strict=True)

    def sample(self, count: int = 8) -> list[str]:
        """A few memory ids spread over the graph (they identify the store it was built from)."""
        return changelog.sample(list(self._keys), count)

    def save(self, sidecar: Path, state: dict[str, Any]) -> None:
        """Write the graph and a JSON sidecar naming it (with `state`); readers never see half."""
        sidecar.parent.mkdir(parents=True, exist_ok=True)
        graph = sidecar.with_name(f"{sidecar.stem}.{uuid.uuid4().hex[:12]}.usearch")
        self._index.save(str(graph))
        body = {**state, "format": FORMAT, "dim": self.dim, "graph": graph.name, "ids": self._ids}
        temporary = sidecar.with_name(f"{graph.stem}.tmp")
        temporary.write_text(json.dumps(body), encoding="utf-8")
        os.replace(temporary, sidecar)
        # Older graphs go; a process saving at the same moment may lose its file, and then the
        # next reader rebuilds: slower, never wrong.
        for stale in sidecar.parent.glob(f"{sidecar.stem}.*.usearch"):
            if stale != graph:
                with contextlib.suppress(OSError):
                    stale.unlink()

    @classmethod
    def load(
        cls, sidecar: Path, dim: int, share: Callable[[str], str]
    ) -> tuple[AnnVectors, dict[str, Any]] | None:
        """A saved graph and its sidecar state, or None when absent, foreign or unreadable."""
        try:
            body = json.loads(sidecar.read_text(encoding="utf-8"))
            if body.get("format") != FORMAT or body.get("dim") != dim:
                return None
            index = _index_class().restore(str(sidecar.with_name(body["graph"])))
        except (OSError, ValueError, KeyError, RuntimeError):
            return None
        if index is None:
            return None
        ids: list[str | None] = [None if m is None else share(m) for m in body.pop("ids")]
        return cls(dim, index, ids), body
