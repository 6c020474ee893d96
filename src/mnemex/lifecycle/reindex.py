"""Reindexing: embed every live memory whose vector is missing, stale or from another model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mnemex.embed import to_bytes
from mnemex.engine import Engine

BATCH = 256
_EVERYTHING = 10_000_000


def run(
    engine: Engine, tenant: str, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """Embed in batches, each written in its own short transaction (other writers interleave)."""
    embedder = engine.embedder
    if embedder is None:
        return {"model": None, "embedded": 0}
    done = 0
    with engine.backend.read(tenant) as tx:
        total = len(tx.stale_embeddings(embedder.model_id, _EVERYTHING))
    while True:
        with engine.backend.read(tenant) as tx:
            batch = tx.stale_embeddings(embedder.model_id, BATCH)
        if not batch:
            break
        vectors = embedder.embed([content for _, content, _ in batch])
        rows = [
            (memory_id, embedder.model_id, content_hash, to_bytes(vector), embedder.dim)
            for (memory_id, _, content_hash), vector in zip(batch, vectors, strict=True)
        ]
        with engine.backend.write(tenant) as tx:
            tx.put_embeddings(rows)
        done += len(batch)
        if progress is not None:
            progress(done, total)
    return {"model": embedder.model_id, "embedded": done}
