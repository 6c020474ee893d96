"""Memory embeddings in pgvector with an HNSW index, and the ledger's phrase vectors, in
PostgreSQL (a PgTx mixin). Nearest-neighbour search runs in the database.

pgvector indexes one dimension per index, so the first vector of a dimension creates its partial
expression index `embeddings_hnsw_<dim>` (cosine distance); the stored bytes stay beside it,
as the Protocol speaks bytes and the export must round-trip exactly.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from mnemex.store.pg_migrations import MIGRATION_LOCK

HNSW_MAX_DIM = 2000  # pgvector's limit for an HNSW index on `vector`
EF_SEARCH_MAX = 1000  # pgvector's limit for hnsw.ef_search
DEFERRED_INDEXES = "hnsw_deferred"  # shared key: the dimensions a bulk load will index at its end
BUILD_MEMORY = "512MB"  # maintenance_work_mem of that build: 100,000 x 384 floats fit in memory


def vector_literal(blob: bytes) -> str:
    """A stored little-endian float32 vector as pgvector's text form (exact: float32 in, out)."""
    return "[" + ",".join(map(str, np.frombuffer(blob, dtype="<f4").tolist())) + "]"


class PgVectorRows:
    """Embedding and phrase-vector methods of PgTx."""

    conn: Any
    tenant: str
    shared: dict[Any, Any]

    def _writable(self) -> None:
        raise NotImplementedError

    def ensure_index(self, dim: int) -> None:
        """Create the HNSW index of this dimension once per database (under the migration lock,
        so servers do not race to create it); during a bulk load, only note the dimension."""
        done: set[int] = self.shared.setdefault("hnsw_dims", set())
        if dim in done or dim > HNSW_MAX_DIM:
            return
        deferred: set[int] | None = self.shared.get(DEFERRED_INDEXES)
        if deferred is not None:
            deferred.add(dim)
            return
        name = f"embeddings_hnsw_{int(dim)}"
        exists = self.conn.execute(
            "SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = %s",
            (name,),
        ).fetchone()
        if exists is None:
            self.conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            self.conn.execute(
                f"CREATE INDEX IF NOT EXISTS {name} ON embeddings USING hnsw "
                f"((embedding::vector({int(dim)})) vector_cosine_ops) WHERE dim = {int(dim)}"
            )
        done.add(dim)

    def put_embeddings(self, rows: Sequence[tuple[str, str, str, bytes, int]]) -> None:
        """Store (memory_id, model, content_hash, vector bytes, dim) rows, replacing older ones."""
        self._writable()
        if not rows:
            return
        for dim in {row[4] for row in rows}:
            self.ensure_index(int(dim))
        with self.conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO embeddings (memory_id, tenant, model, content_hash, dim, vector, "
                "embedding) VALUES (%s, %s, %s, %s, %s, %s, %s::vector) "
                "ON CONFLICT (memory_id) DO UPDATE SET model = excluded.model, "
                "content_hash = excluded.content_hash, dim = excluded.dim, "
                "vector = excluded.vector, embedding = excluded.embedding",
                [
                    (m, self.tenant, model, h, dim, vec, vector_literal(vec))
                    for m, model, h, vec, dim in rows
                ],
            )

    def vector_search(
        self, model: str, dim: int, query: bytes, limit: int
    ) -> list[tuple[str, float]]:
        """The `limit` live memories (current vector by `model`) nearest to the query, as
        (id, cosine), best first: HNSW with pgvector's iterative scan, so the tenant and
        liveness filters do not starve the result."""
        if limit <= 0:
            return []
        d = int(dim)
        self.conn.execute(
            "SELECT set_config('hnsw.ef_search', %s, true), "
            "set_config('hnsw.iterative_scan', 'relaxed_order', true)",
            (str(min(EF_SEARCH_MAX, max(40, 2 * limit))),),
        )
        literal = vector_literal(query)
        # The nearest vectors alone first (the HNSW index scan; joined to memories in one
        # query, the planner prefers an exact scan of every vector: 235 ms against 15 ms at
        # 10,000), then those of live memories; twice the room for superseded or archived ones.
        rows = self.conn.execute(
            "SELECT n.memory_id, 1 - n.distance FROM ("
            f"SELECT e.memory_id, e.content_hash, e.embedding::vector({d}) <=> %s::vector({d}) "
            f"AS distance FROM embeddings e WHERE e.dim = {d} AND e.tenant = %s AND e.model = %s "
            f"ORDER BY e.embedding::vector({d}) <=> %s::vector({d}) LIMIT %s) AS n "
            "JOIN memories m ON m.id = n.memory_id AND m.tenant = %s "
            "AND m.content_hash = n.content_hash AND m.status IN ('active', 'promoted') "
            "ORDER BY n.distance LIMIT %s",
            (literal, self.tenant, model, literal, 2 * limit, self.tenant, limit),
        ).fetchall()
        found = [(str(row[0]), float(row[1])) for row in rows]
        found.sort(key=lambda hit: -hit[1])  # relaxed order: nearly sorted
        return found

    def embeddings_by_hash(self, model: str, hashes: Sequence[str]) -> dict[str, bytes]:
        """Vectors already computed by `model` for these content hashes (this tenant's: row-level
        security keeps other tenants' rows out of sight)."""
        rows = self.conn.execute(
            "SELECT content_hash, vector FROM embeddings WHERE tenant = %s AND model = %s "
            "AND content_hash = ANY(%s)",
            (self.tenant, model, list(dict.fromkeys(hashes))),
        ).fetchall()
        return {row[0]: bytes(row[1]) for row in rows}

    def phrase_vectors(self, model: str, digests: Sequence[str]) -> dict[str, bytes]:
        """Stored vectors of phrases (by digest) that `model` embedded before, for this tenant."""
        rows = self.conn.execute(
            "SELECT digest, vector FROM phrase_vectors "
            "WHERE tenant = %s AND model = %s AND digest = ANY(%s)",
            (self.tenant, model, list(digests)),
        ).fetchall()
        return {row[0]: bytes(row[1]) for row in rows}

    def put_phrase_vectors(self, model: str, rows: Sequence[tuple[str, bytes]]) -> None:
        """Keep (digest, vector bytes) of phrases `model` embedded; a known digest stays."""
        self._writable()
        if not rows:
            return
        with self.conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO phrase_vectors (tenant, model, digest, vector) "
                "VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                [(self.tenant, model, digest, vector) for digest, vector in rows],
            )

    def iter_embeddings(self, model: str) -> Iterator[tuple[str, bytes]]:
        """(memory_id, vector) of every live memory embedded by `model`, in pages."""
        last = -1
        while True:
            rows = self.conn.execute(
                "SELECT e.memory_id, e.vector, m.seq FROM embeddings e "
                "JOIN memories m ON m.id = e.memory_id WHERE e.tenant = %s AND e.model = %s "
                "AND m.tenant = %s AND m.content_hash = e.content_hash "
                "AND m.status IN ('active', 'promoted') AND m.seq > %s ORDER BY m.seq LIMIT 1000",
                (self.tenant, model, self.tenant, last),
            ).fetchall()
            if not rows:
                return
            for row in rows:
                yield row[0], bytes(row[1])
            last = rows[-1][2]

    def live_embeddings(self, memory_ids: Sequence[str], model: str) -> dict[str, bytes]:
        """Current vectors by `model` of those memories that are live (active or promoted)."""
        rows = self.conn.execute(
            "SELECT e.memory_id, e.vector FROM embeddings e "
            "JOIN memories m ON m.id = e.memory_id "
            "WHERE e.memory_id = ANY(%s) AND e.tenant = %s AND m.tenant = %s "
            "AND e.model = %s AND m.content_hash = e.content_hash "
            "AND m.status IN ('active', 'promoted')",
            (list(dict.fromkeys(memory_ids)), self.tenant, self.tenant, model),
        ).fetchall()
        return {row[0]: bytes(row[1]) for row in rows}

    def stale_embeddings(self, model: str, limit: int) -> list[tuple[str, str, str]]:
        """(memory_id, content, content_hash) of memories with no current vector from `model`."""
        rows = self.conn.execute(
            "SELECT m.id, m.content, m.content_hash FROM memories m "
            "LEFT JOIN embeddings e ON e.memory_id = m.id "
            "WHERE m.tenant = %s AND m.status IN ('active', 'promoted') "
            "AND (e.memory_id IS NULL OR e.model != %s OR e.content_hash != m.content_hash) "
            "ORDER BY m.seq LIMIT %s",
            (self.tenant, model, limit),
        ).fetchall()
        return [(row[0], row[1], row[2]) for row in rows]
