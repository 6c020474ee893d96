"""Memory embeddings and the ledger's phrase vectors in SQLite (a SqliteTx mixin)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from mnemex.store._sqlite_memories import IN_JSON, json_list


class VectorRows:
    """Embedding and phrase-vector methods of SqliteTx."""

    conn: Any
    tenant: str

    def _writable(self) -> None:
        raise NotImplementedError

    def put_embeddings(self, rows: Sequence[tuple[str, str, str, bytes, int]]) -> None:
        """Store (memory_id, model, content_hash, vector bytes, dim) rows, replacing older ones."""
        self._writable()
        self.conn.executemany(
            "INSERT INTO embeddings (memory_id, tenant, model, content_hash, dim, vector) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (memory_id) DO UPDATE SET "
            "model = excluded.model, "
            "content_hash = excluded.content_hash, dim = excluded.dim, vector = excluded.vector",
            [(m, self.tenant, model, h, dim, vec) for m, model, h, vec, dim in rows],
        )

    def embeddings_by_hash(self, model: str, hashes: Sequence[str]) -> dict[str, bytes]:
        """Vectors already computed by `model` for these content hashes (any memory, any tenant)."""
        unique = list(dict.fromkeys(hashes))
        found: dict[str, bytes] = {}
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            rows = self.conn.execute(
                "SELECT content_hash, vector FROM embeddings WHERE model = ? "
                f"AND content_hash IN ({','.join('?' * len(chunk))})",
                (model, *chunk),
            ).fetchall()
            found.update((row[0], bytes(row[1])) for row in rows)
        return found

    def phrase_vectors(self, model: str, digests: Sequence[str]) -> dict[str, bytes]:
        """Stored vectors of phrases (by digest) that `model` embedded before, for this tenant."""
        rows = self.conn.execute(
            "SELECT digest, vector FROM phrase_vectors "
            f"WHERE tenant = ? AND model = ? AND digest {IN_JSON}",
            (self.tenant, model, json_list(digests)),
        ).fetchall()
        return {row[0]: bytes(row[1]) for row in rows}

    def put_phrase_vectors(self, model: str, rows: Sequence[tuple[str, bytes]]) -> None:
        """Keep (digest, vector bytes) of phrases `model` embedded; a known digest stays."""
        self._writable()
        self.conn.executemany(
            "INSERT OR IGNORE INTO phrase_vectors (tenant, model, digest, vector) "
            "VALUES (?, ?, ?, ?)",
            [(self.tenant, model, digest, vector) for digest, vector in rows],
        )

    def iter_embeddings(self, model: str) -> Iterator[tuple[str, bytes]]:
        """(memory_id, vector) of every live memory embedded by `model`."""
        cursor = self.conn.execute(
            "SELECT e.memory_id, e.vector FROM embeddings e JOIN memories m ON m.id = e.memory_id "
            "WHERE e.tenant = ? AND e.model = ? AND m.content_hash = e.content_hash "
            "AND m.status IN ('active', 'promoted') ORDER BY m.seq",
            (self.tenant, model),
        )
        for row in cursor:
            yield row[0], bytes(row[1])

    def live_embeddings(self, memory_ids: Sequence[str], model: str) -> dict[str, bytes]:
        """Current vectors by `model` of those memories that are live (active or promoted)."""
        unique = list(dict.fromkeys(memory_ids))
        found: dict[str, bytes] = {}
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            rows = self.conn.execute(
                "SELECT e.memory_id, e.vector FROM embeddings e "
                "JOIN memories m ON m.id = e.memory_id "
                f"WHERE e.memory_id IN ({','.join('?' * len(chunk))}) AND +e.tenant = ? "
                "AND e.model = ? AND m.content_hash = e.content_hash "
                "AND m.status IN ('active', 'promoted')",
                (*chunk, self.tenant, model),
            ).fetchall()
            found.update((row[0], bytes(row[1])) for row in rows)
        return found

    def stale_embeddings(self, model: str, limit: int) -> list[tuple[str, str, str]]:
        """(memory_id, content, content_hash) of memories with no current vector from `model`."""
        rows = self.conn.execute(
            "SELECT m.id, m.content, m.content_hash FROM memories m "
            "LEFT JOIN embeddings e ON e.memory_id = m.id "
            "WHERE m.tenant = ? AND m.status IN ('active', 'promoted') "
            "AND (e.memory_id IS NULL OR e.model != ? OR e.content_hash != m.content_hash) "
            "ORDER BY m.seq LIMIT ?",
            (self.tenant, model, limit),
        ).fetchall()
        return [(row[0], row[1], row[2]) for row in rows]
