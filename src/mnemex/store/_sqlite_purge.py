"""Purging memories for good in SQLite (a SqliteTx mixin): the rows that hold their words.

A hard forget deletes the memory (its embedding, links and usage cascade; FTS follows by
trigger), the facts it stated, the relations it is the source of, reviews naming those, the
value counts left at zero, and the entities nothing refers to any more. With `secure_delete` on
for the transaction, freed pages are zeroed; `compact_purged` then merges the FTS segments
(a deleted row's tokens stay in its old segment until a merge) and truncates the WAL.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import sqlean


def _marks(values: Sequence[object]) -> str:
    return ",".join("?" * len(values))


class PurgeRows:
    """Hard deletion of memories and everything that repeats their text."""

    conn: Any
    tenant: str

    def _writable(self) -> None:  # pragma: no cover - provided by SqliteTx
        raise NotImplementedError

    def purge_memories(self, memory_ids: Sequence[str]) -> dict[str, int]:
        """Delete memories and what only they held; counts of what went, by kind."""
        self._writable()
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {"memories": 0, "facts": 0, "relations": 0, "entities": 0, "reviews": 0}
        conn, tenant, marks = self.conn, self.tenant, _marks(ids)
        conn.execute("PRAGMA secure_delete = ON")
        facts = conn.execute(
            f"SELECT id, subject_id, object_id FROM facts WHERE tenant = ? "
            f"AND memory_id IN ({marks})",
            (tenant, *ids),
        ).fetchall()
        fact_ids = [row[0] for row in facts]
        entities = {row[1] for row in facts} | {row[2] for row in facts if row[2]}
        entities |= {
            row[0]
            for row in conn.execute(
                f"SELECT entity_id FROM memory_entities WHERE tenant = ? "
                f"AND memory_id IN ({marks})",
                (tenant, *ids),
            )
        }
        relations = conn.execute(
            f"SELECT id, from_id, to_id FROM relations WHERE tenant = ? AND "
            f"(source_memory IN ({marks}) OR from_id IN ({marks}) OR to_id IN ({marks}))",
            (tenant, *ids, *ids, *ids),
        ).fetchall()
        entities |= {row[1] for row in relations} | {row[2] for row in relations}
        reviews = 0
        for ident in [*ids, *fact_ids]:
            reviews += conn.execute(
                "DELETE FROM reviews WHERE tenant = ? AND instr(payload, ?) > 0",
                (tenant, ident),
            ).rowcount
        if fact_ids:
            fact_marks = _marks(fact_ids)
            conn.execute(
                f"UPDATE facts SET superseded_by = NULL WHERE tenant = ? "
                f"AND superseded_by IN ({fact_marks})",
                (tenant, *fact_ids),
            )
            conn.execute(
                f"DELETE FROM facts WHERE tenant = ? AND id IN ({fact_marks})", (tenant, *fact_ids)
            )
        if relations:
            relation_ids = [row[0] for row in relations]
            conn.execute(
                f"DELETE FROM relations WHERE tenant = ? AND id IN ({_marks(relation_ids)})",
                (tenant, *relation_ids),
            )
        memories = conn.execute(
            f"DELETE FROM memories WHERE tenant = ? AND id IN ({marks})", (tenant, *ids)
        ).rowcount
        conn.execute("DELETE FROM fact_value_counts WHERE tenant = ? AND facts <= 0", (tenant,))
        orphans = [e for e in sorted(entities) if self._orphan(e)]
        if orphans:
            conn.execute(
                f"DELETE FROM entities WHERE tenant = ? AND id IN ({_marks(orphans)})",
                (tenant, *orphans),
            )
        return {
            "memories": memories,
            "facts": len(fact_ids),
            "relations": len(relations),
            "entities": len(orphans),
            "reviews": reviews,
        }

    def _orphan(self, entity_id: str) -> bool:
        """Whether no memory, fact or relation refers to an entity any more."""
        checks = (
            "SELECT 1 FROM memory_entities WHERE entity_id = ? LIMIT 1",
            "SELECT 1 FROM facts WHERE subject_id = ? LIMIT 1",
            "SELECT 1 FROM facts WHERE object_id = ? LIMIT 1",
            "SELECT 1 FROM relations WHERE from_id = ? LIMIT 1",
            "SELECT 1 FROM relations WHERE to_id = ? LIMIT 1",
        )
        return not any(self.conn.execute(sql, (entity_id,)).fetchone() for sql in checks)


def compact_purged(conn: Any, in_memory: bool) -> None:
    """After a purge commits: merge the FTS segments and leave no old page in the WAL."""
    conn.execute("PRAGMA secure_delete = ON")
    try:
        conn.execute("INSERT INTO memories_fts (memories_fts) VALUES ('optimize')")
        if not in_memory:
            with contextlib.suppress(sqlean.OperationalError):  # busy readers: best effort
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.execute("PRAGMA secure_delete = OFF")
