"""Clustering: groups of near-identical memories, with ids derived from their members."""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from mnemex.embed import from_bytes
from mnemex.engine import Engine
from mnemex.limits import content_hash
from mnemex.models import LIVE_STATUSES, Cluster
from mnemex.store.base import MemoryFilter, Tx
from mnemex.text import STOPWORDS, preview, words

Matrix = npt.NDArray[np.float32]
_HASH_DIMS = 2048
_BLOCK = 1024


def cluster_id(member_ids: Sequence[str]) -> str:
    """The same members always give the same id, so `consolidate(id)` finds the cluster again."""
    digest = hashlib.sha256(",".join(sorted(member_ids)).encode("utf-8")).hexdigest()
    return f"cl_{digest[:16]}"


def lexical_vectors(texts: Sequence[str]) -> Matrix:
    """Unit TF-IDF vectors in a hashed space: the similarity used when no embedding model is on."""
    docs = [[w for w in words(text) if w not in STOPWORDS] for text in texts]
    counts = np.zeros((len(docs), _HASH_DIMS), dtype=np.float32)
    for row, doc in enumerate(docs):
        for word in doc:
            counts[row, zlib.crc32(word.encode("utf-8")) % _HASH_DIMS] += 1.0
    df = (counts > 0).sum(axis=0)
    idf = np.log((1.0 + len(docs)) / (1.0 + df)) + 1.0
    weighted = np.log1p(counts) * idf.astype(np.float32)
    norms = np.linalg.norm(weighted, axis=1, keepdims=True)
    return np.asarray(weighted / np.maximum(norms, 1e-12), dtype=np.float32)


def similar_pairs(vectors: Matrix, threshold: float) -> list[tuple[int, int, float]]:
    """(i, j, cosine) for every pair i < j at or above `threshold`, computed block by block."""
    pairs: list[tuple[int, int, float]] = []
    n = len(vectors)
    for start in range(0, n, _BLOCK):
        block = vectors[start : start + _BLOCK] @ vectors.T
        rows, cols = np.nonzero(block >= threshold)
        for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
            i = start + r
            if i < c:
                pairs.append((i, c, float(block[r, c])))
    return pairs


def group(
    ids: Sequence[str], vectors: Matrix, threshold: float, min_size: int = 2
) -> list[tuple[list[str], float]]:
    """Connected groups of similar memories with their mean pairwise similarity, largest first."""
    parent = list(range(len(ids)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j, _ in similar_pairs(vectors, threshold):
        a, b = find(i), find(j)
        if a != b:
            parent[max(a, b)] = min(a, b)
    members: dict[int, list[int]] = {}
    for i in range(len(ids)):
        members.setdefault(find(i), []).append(i)
    groups: list[tuple[list[str], float]] = []
    for indices in members.values():
        if len(indices) < min_size:
            continue
        sub = vectors[indices]
        sims = sub @ sub.T
        k = len(indices)
        cohesion = float((sims.sum() - np.trace(sims)) / (k * (k - 1)))
        groups.append((sorted(ids[i] for i in indices), cohesion))
    groups.sort(key=lambda item: (-len(item[0]), item[0][0]))
    return groups


def similarity_vectors(engine: Engine, tx: Tx, texts: Sequence[str]) -> Matrix:
    """Unit vectors to compare memories: their embeddings, or hashed TF-IDF without a model."""
    embedder = engine.embedder
    if embedder is None or not texts:
        return lexical_vectors(texts)
    blobs = engine.vectors_for(tx, texts, [content_hash(text) for text in texts])
    return np.stack([from_bytes(blob, embedder.dim) for blob in blobs if blob is not None])


def find(engine: Engine, tenant: str, threshold: float, limit: int) -> list[Cluster]:
    """Groups of similar live memories of a tenant, largest first; ids stable for the members."""
    with engine.backend.read(tenant) as tx:
        rows = tx.temporal_rows(MemoryFilter(statuses=LIVE_STATUSES))
        vectors = similarity_vectors(engine, tx, [row.content for row in rows])
    ids = [row.id for row in rows]
    previews = {row.id: preview(row.content, 60) for row in rows}
    return [
        Cluster(cluster_id(members), members, cohesion, [previews[m] for m in members])
        for members, cohesion in group(ids, vectors, threshold)[:limit]
    ]
