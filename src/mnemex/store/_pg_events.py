"""Audit events, usage and co-usage counts, the change log and ingested files in PostgreSQL
(a PgTx mixin). Counts change by `count = count + 1` in one statement: no lost increments."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mnemex.models import new_id
from mnemex.store._sqlite_events import _CHANGE_LOG_KEEP
from mnemex.store._sqlite_sources import _COLUMNS as _SOURCE_COLUMNS
from mnemex.store._sqlite_sources import _record
from mnemex.store.base import Change, SourceRecord


class PgEventRows:
    """Events, usage, change-log and source-file methods of PgTx."""

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
            "VALUES (%s, %s, %s, %s, %s, %s)",
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
        sql = "SELECT id, kind, at, subject_id, payload FROM events WHERE tenant = %s"
        params: list[Any] = [self.tenant]
        if kind is not None:
            sql += " AND kind = %s"
            params.append(kind)
        rows = self.conn.execute(sql + " ORDER BY seq DESC LIMIT %s", (*params, limit)).fetchall()
        return [
            {"id": r[0], "kind": r[1], "at": r[2], "subject_id": r[3], "payload": json.loads(r[4])}
            for r in rows
        ]

    def record_usage(self, memory_ids: Sequence[str], *, used: bool, at: int) -> None:
        """Count memories as retrieved (shown to an agent) or used (observed after retrieval)."""
        self._writable()
        if not memory_ids:
            return
        column, stamp = ("used", "last_used") if used else ("retrieved", "last_retrieved")
        with self.conn.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO usage AS u (memory_id, tenant, {column}, {stamp}) "
                "SELECT id, tenant, 1, %s FROM memories WHERE tenant = %s AND id = %s "
                f"ON CONFLICT (memory_id) DO UPDATE SET {column} = u.{column} + 1, "
                f"{stamp} = excluded.{stamp}",
                [(at, self.tenant, memory_id) for memory_id in memory_ids],
            )

    def usage_counts(self, memory_ids: Sequence[str]) -> dict[str, tuple[int, int]]:
        """(retrieved, used) per memory that has any usage."""
        rows = self.conn.execute(
            "SELECT memory_id, retrieved, used FROM usage WHERE tenant = %s "
            "AND memory_id = ANY(%s)",
            (self.tenant, list(dict.fromkeys(memory_ids))),
        ).fetchall()
        return {row[0]: (int(row[1]), int(row[2])) for row in rows}

    def add_co_usage(self, pairs: Sequence[tuple[str, str]], at: int) -> None:
        """Count memories used together; each pair is stored once, smaller id first."""
        self._writable()
        ordered = sorted({(a, b) if a < b else (b, a) for a, b in pairs if a != b})
        if not ordered:
            return
        self.conn.execute(
            "INSERT INTO co_usage AS c (tenant, a, b, count, last_at) "
            "SELECT %s, a, b, 1, %s FROM unnest(%s::text[], %s::text[]) "
            "WITH ORDINALITY AS p (a, b, n) ORDER BY n "
            "ON CONFLICT (tenant, a, b) DO UPDATE SET count = c.count + 1, "
            "last_at = excluded.last_at",
            (self.tenant, at, [a for a, _ in ordered], [b for _, b in ordered]),
        )

    def co_usage_partners(
        self, memory_ids: Sequence[str], limit: int
    ) -> list[tuple[str, str, int]]:
        """(memory, partner, count) for the strongest co-used partners of the given memories."""
        unique = list(dict.fromkeys(memory_ids))
        if not unique:
            return []
        rows = self.conn.execute(
            "SELECT a, b, count FROM co_usage WHERE tenant = %s AND a = ANY(%s) "
            "UNION ALL SELECT b, a, count FROM co_usage WHERE tenant = %s AND b = ANY(%s) "
            "ORDER BY 3 DESC LIMIT %s",
            (self.tenant, unique, self.tenant, unique, limit),
        ).fetchall()
        return [(row[0], row[1], int(row[2])) for row in rows]

    def changes_since(self, seq: int, limit: int) -> list[Change]:
        """This tenant's change-log rows after `seq`, oldest first."""
        rows = self.conn.execute(
            "SELECT seq, memory_id, op FROM change_log WHERE tenant = %s AND seq > %s "
            "ORDER BY seq LIMIT %s",
            (self.tenant, seq, limit),
        ).fetchall()
        return [Change(int(row[0]), row[1], row[2]) for row in rows]

    def last_change(self) -> int:
        """The newest change-log sequence number of this tenant (0 when empty); row-level
        security hides other tenants' rows, and one tenant's writes are serialised, so its
        numbers grow in commit order."""
        row = self.conn.execute(
            "SELECT max(seq) FROM change_log WHERE tenant = %s", (self.tenant,)
        ).fetchone()
        return int(row[0] or 0)

    def oldest_change(self) -> int:
        """The oldest change-log sequence number of this tenant still kept (0 when empty)."""
        row = self.conn.execute(
            "SELECT min(seq) FROM change_log WHERE tenant = %s", (self.tenant,)
        ).fetchone()
        return int(row[0] or 0)

    def trim_change_log(self) -> None:
        """Keep this tenant's change log bounded; readers further behind reload in full."""
        self._writable()
        newest = self.last_change()
        if newest > _CHANGE_LOG_KEEP:
            self.conn.execute(
                "DELETE FROM change_log WHERE tenant = %s AND seq <= %s",
                (self.tenant, newest - _CHANGE_LOG_KEEP),
            )

    def sources(self, under: str) -> dict[str, SourceRecord]:
        """The record of the file `under`, or of every file below the folder `under`."""
        folder = under.rstrip("/") + "/"
        rows = self.conn.execute(
            f"SELECT {_SOURCE_COLUMNS} FROM source_files WHERE tenant = %s "
            "AND (path = %s OR (path >= %s AND path < %s)) ORDER BY path",
            (self.tenant, under, folder, folder[:-1] + "0"),
        ).fetchall()
        return {row[0]: _record(row) for row in rows}

    def put_source(self, record: SourceRecord) -> None:
        """Insert or replace the record of one file."""
        self._writable()
        chunks = json.dumps([[c.hash, c.memory_id, c.start, c.end] for c in record.chunks])
        self.conn.execute(
            f"INSERT INTO source_files (tenant, {_SOURCE_COLUMNS}) "
            f"VALUES ({', '.join(['%s'] * 10)}) "
            "ON CONFLICT (tenant, path) DO UPDATE SET kind = excluded.kind, "
            "content_hash = excluded.content_hash, parser = excluded.parser, "
            "status = excluded.status, size = excluded.size, modified_at = excluded.modified_at, "
            "ingested_at = excluded.ingested_at, chunks = excluded.chunks",
            (
                self.tenant,
                record.path,
                record.kind,
                record.content_hash,
                record.parser,
                record.status,
                record.size,
                record.modified_at,
                record.ingested_at,
                chunks,
            ),
        )
