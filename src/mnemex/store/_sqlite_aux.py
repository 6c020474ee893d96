"""Audit events, usage, embeddings, change log and raw export in SQLite (a SqliteTx mixin)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from mnemex.models import new_id
from mnemex.store._sqlite_memories import IN_JSON, json_list
from mnemex.store.base import Change
from mnemex.text import value_key

# Tables a tenant's export carries, in an order that satisfies foreign keys on import.
EXPORT_TABLES = (
    "memories",
    "entities",
    "entity_aliases",
    "memory_entities",
    "relations",
    "facts",
    "reviews",
    "usage",
    "co_usage",
    "events",
)
_ORDER = {
    "entity_aliases": "rowid",
    "memory_entities": "rowid",
    "usage": "rowid",
    "co_usage": "rowid",
}
_CHANGE_LOG_KEEP = 200_000


class AuxRows:
    """Events, usage, embeddings, change log and export methods of SqliteTx."""

    conn: Any
    tenant: str

    def _writable(self) -> None:
        raise NotImplementedError

    def log_event(
        self, kind: str, at: int, subject_id: str | None, payload: dict[str, Any]
    ) -> None:
        """Append to the audit log."""
        self._writable()
        self.conn.execute(
            "INSERT INTO events (id, tenant, kind, at, subject_id, payload) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                new_id("evt"),
                self.tenant,
                kind,
                at,
                subject_id,
                json.dumps(payload, ensure_ascii=False, default=str),
            ),
        )

    def list_events(self, kind: str | None, limit: int) -> list[dict[str, Any]]:
        """The newest audit events, optionally of one kind."""
        sql = "SELECT id, kind, at, subject_id, payload FROM events WHERE tenant = ?"
        params: list[Any] = [self.tenant]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        rows = self.conn.execute(sql + " ORDER BY seq DESC LIMIT ?", (*params, limit)).fetchall()
        return [
            {"id": r[0], "kind": r[1], "at": r[2], "subject_id": r[3], "payload": json.loads(r[4])}
            for r in rows
        ]

    def record_usage(self, memory_ids: Sequence[str], *, used: bool, at: int) -> None:
        """Count memories as retrieved (shown to an agent) or used (observed after retrieval)."""
        self._writable()
        column, stamp = ("used", "last_used") if used else ("retrieved", "last_retrieved")
        self.conn.executemany(
            f"INSERT INTO usage (memory_id, tenant, {column}, {stamp}) "
            "SELECT id, tenant, 1, ? FROM memories WHERE tenant = ? AND id = ? "
            f"ON CONFLICT (memory_id) DO UPDATE SET {column} = {column} + 1, "
            f"{stamp} = excluded.{stamp}",
            [(at, self.tenant, memory_id) for memory_id in memory_ids],
        )

    def usage_counts(self, memory_ids: Sequence[str]) -> dict[str, tuple[int, int]]:
        """(retrieved, used) per memory that has any usage."""
        unique = list(dict.fromkeys(memory_ids))
        found: dict[str, tuple[int, int]] = {}
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            rows = self.conn.execute(
                "SELECT memory_id, retrieved, used FROM usage WHERE +tenant = ? "
                f"AND memory_id IN ({','.join('?' * len(chunk))})",
                (self.tenant, *chunk),
            ).fetchall()
            found.update((row[0], (int(row[1]), int(row[2]))) for row in rows)
        return found

    def add_co_usage(self, pairs: Sequence[tuple[str, str]], at: int) -> None:
        """Count memories used together; each pair is stored once, smaller id first."""
        self._writable()
        ordered = sorted({(a, b) if a < b else (b, a) for a, b in pairs if a != b})
        self.conn.executemany(
            "INSERT INTO co_usage (tenant, a, b, count, last_at) VALUES (?, ?, ?, 1, ?) "
            "ON CONFLICT (tenant, a, b) DO UPDATE SET count = count + 1, "
            "last_at = excluded.last_at",
            [(self.tenant, a, b, at) for a, b in ordered],
        )

    def co_usage_partners(
        self, memory_ids: Sequence[str], limit: int
    ) -> list[tuple[str, str, int]]:
        """(memory, partner, count) for the strongest co-used partners of the given memories."""
        unique = list(dict.fromkeys(memory_ids))
        if not unique:
            return []
        marks = ",".join("?" * len(unique))
        rows = self.conn.execute(
            f"SELECT a, b, count FROM co_usage WHERE tenant = ? AND a IN ({marks}) "
            f"UNION ALL SELECT b, a, count FROM co_usage WHERE tenant = ? AND b IN ({marks}) "
            "ORDER BY 3 DESC LIMIT ?",
            (self.tenant, *unique, self.tenant, *unique, limit),
        ).fetchall()
        return [(row[0], row[1], int(row[2])) for row in rows]

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

    def changes_since(self, seq: int, limit: int) -> list[Change]:
        """This tenant's change-log rows after `seq`, oldest first."""
        rows = self.conn.execute(
            "SELECT seq, memory_id, op FROM change_log WHERE tenant = ? AND seq > ? "
            "ORDER BY seq LIMIT ?",
            (self.tenant, seq, limit),
        ).fetchall()
        return [Change(int(row[0]), row[1], row[2]) for row in rows]

    def last_change(self) -> int:
        """The newest change-log sequence number of any tenant (0 when empty)."""
        row = self.conn.execute("SELECT max(seq) FROM change_log").fetchone()
        return int(row[0] or 0)

    def oldest_change(self) -> int:
        """The oldest change-log sequence number still kept (0 when empty)."""
        row = self.conn.execute("SELECT min(seq) FROM change_log").fetchone()
        return int(row[0] or 0)

    def trim_change_log(self) -> None:
        """Keep the change log bounded; readers further behind than this reload in full."""
        self._writable()
        newest = self.last_change()
        if newest > _CHANGE_LOG_KEEP:
            self.conn.execute("DELETE FROM change_log WHERE seq <= ?", (newest - _CHANGE_LOG_KEEP,))

    def export_rows(self, table: str) -> Iterator[dict[str, Any]]:
        """Every row of this tenant in `table`, as column -> stored value, in insertion order."""
        if table not in EXPORT_TABLES:
            raise ValueError(f"not exportable: {table}")
        cursor = self.conn.execute(
            f"SELECT * FROM {table} WHERE tenant = ? ORDER BY {_ORDER.get(table, 'seq')}",
            (self.tenant,),
        )
        names = [column[0] for column in cursor.description]
        for row in cursor:
            record = dict(zip(names, row, strict=True))
            record.pop("seq", None)
            record.pop("tenant", None)
            yield record

    def import_row(self, table: str, row: dict[str, Any]) -> bool:
        """Insert one exported row into this tenant; False when a row with its key exists."""
        self._writable()
        if table not in EXPORT_TABLES:
            raise ValueError(f"not importable: {table}")
        columns = {c[1] for c in self.conn.execute(f"PRAGMA table_info({table})").fetchall()}
        values = {k: v for k, v in row.items() if k in columns and k not in {"seq", "tenant"}}
        values["tenant"] = self.tenant
        if table == "facts" and isinstance(values.get("object"), str):
            values["object_key"] = value_key(values["object"])  # an older export lacks it
        names = sorted(values)
        cursor = self.conn.execute(
            f"INSERT OR IGNORE INTO {table} ({', '.join(names)}) "
            f"VALUES ({','.join('?' * len(names))})",
            [values[n] for n in names],
        )
        return bool(cursor.rowcount)

    def table_counts(self) -> dict[str, int]:
        """Rows per table for this tenant."""
        return {
            table: int(
                self.conn.execute(
                    f"SELECT count(*) FROM {table} WHERE tenant = ?", (self.tenant,)
                ).fetchone()[0]
            )
            for table in EXPORT_TABLES
        }
