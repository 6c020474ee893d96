"""Purging memories for good in PostgreSQL (a PgTx mixin): the rows that hold their words.

The same rows go as on SQLite (_sqlite_purge.py): the memory (its embedding, entity links and
usage cascade; the lexicon statistics follow by trigger), the facts it stated, the relations it
is the source of or that touch it, reviews naming those, the value counts left at zero and the
entities nothing refers to any more. PostgreSQL also keeps each term's text in `lexicon_terms`,
so the terms no memory of the tenant holds any more go too (FTS5 drops them on its merge).

`compact_purged` then vacuums the tables a purge touches: the dead row versions and their index
and TOAST entries are removed and their space made reusable. Unlike SQLite's `secure_delete`,
PostgreSQL does not zero freed space, and its WAL and archived segments keep the old rows until
the server recycles them: that part is the database administrator's (see the README).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# Tables a purge deletes from (directly, by cascade or by trigger), vacuumed after it.
PURGED_TABLES = (
    "memories",
    "facts",
    "relations",
    "reviews",
    "entities",
    "entity_aliases",
    "memory_entities",
    "embeddings",
    "usage",
    "lexicon_terms",
    "fact_value_counts",
)


class PgPurgeRows:
    """Hard deletion of memories and everything that repeats their text."""

    conn: Any
    tenant: str

    def _writable(self) -> None:  # pragma: no cover - provided by PgTx
        raise NotImplementedError

    def purge_memories(self, memory_ids: Sequence[str]) -> dict[str, int]:
        """Delete memories and what only they held; counts of what went, by kind."""
        self._writable()
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return {"memories": 0, "facts": 0, "relations": 0, "entities": 0, "reviews": 0}
        conn, tenant = self.conn, self.tenant
        facts = conn.execute(
            "SELECT id, subject_id, object_id FROM facts WHERE tenant = %s AND memory_id = ANY(%s)",
            (tenant, ids),
        ).fetchall()
        fact_ids = [str(row[0]) for row in facts]
        entities = {str(row[1]) for row in facts} | {str(row[2]) for row in facts if row[2]}
        entities |= {
            str(row[0])
            for row in conn.execute(
                "SELECT entity_id FROM memory_entities WHERE tenant = %s AND memory_id = ANY(%s)",
                (tenant, ids),
            )
        }
        relations = conn.execute(
            "SELECT id, from_id, to_id FROM relations WHERE tenant = %s AND "
            "(source_memory = ANY(%s) OR from_id = ANY(%s) OR to_id = ANY(%s))",
            (tenant, ids, ids, ids),
        ).fetchall()
        entities |= {str(row[1]) for row in relations} | {str(row[2]) for row in relations}
        reviews = conn.execute(
            "DELETE FROM reviews WHERE tenant = %s AND EXISTS "
            "(SELECT 1 FROM unnest(%s::text[]) AS named WHERE strpos(payload, named) > 0)",
            (tenant, [*ids, *fact_ids]),
        ).rowcount
        if fact_ids:
            conn.execute(
                "UPDATE facts SET superseded_by = NULL WHERE tenant = %s "
                "AND superseded_by = ANY(%s)",
                (tenant, fact_ids),
            )
            conn.execute("DELETE FROM facts WHERE tenant = %s AND id = ANY(%s)", (tenant, fact_ids))
        if relations:
            conn.execute(
                "DELETE FROM relations WHERE tenant = %s AND id = ANY(%s)",
                (tenant, [str(row[0]) for row in relations]),
            )
        memories = conn.execute(
            "DELETE FROM memories WHERE tenant = %s AND id = ANY(%s)", (tenant, ids)
        ).rowcount
        conn.execute("DELETE FROM fact_value_counts WHERE tenant = %s AND facts <= 0", (tenant,))
        conn.execute("DELETE FROM lexicon_terms WHERE tenant = %s AND df <= 0", (tenant,))
        orphans = self._orphans(sorted(entities))
        if orphans:
            conn.execute(
                "DELETE FROM entities WHERE tenant = %s AND id = ANY(%s)", (tenant, orphans)
            )
        return {
            "memories": int(memories),
            "facts": len(fact_ids),
            "relations": len(relations),
            "entities": len(orphans),
            "reviews": int(reviews),
        }

    def _orphans(self, entity_ids: Sequence[str]) -> list[str]:
        """The entities no memory, fact or relation of this tenant refers to any more."""
        if not entity_ids:
            return []
        t = self.tenant
        rows = self.conn.execute(
            "SELECT e FROM unnest(%s::text[]) AS e WHERE "
            "NOT EXISTS (SELECT 1 FROM memory_entities WHERE tenant = %s AND entity_id = e) "
            "AND NOT EXISTS (SELECT 1 FROM facts WHERE tenant = %s AND subject_id = e) "
            "AND NOT EXISTS (SELECT 1 FROM facts WHERE tenant = %s AND object_id = e) "
            "AND NOT EXISTS (SELECT 1 FROM relations WHERE tenant = %s AND from_id = e) "
            "AND NOT EXISTS (SELECT 1 FROM relations WHERE tenant = %s AND to_id = e) "
            "ORDER BY e",
            (list(entity_ids), t, t, t, t, t),
        ).fetchall()
        return [str(row[0]) for row in rows]
