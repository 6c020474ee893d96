"""Audit events, usage and co-usage counts, and the change log in SQLite (a SqliteTx mixin)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from mnemex.models import new_id
from mnemex.store.base import Change

_CHANGE_LOG_KEEP = 200_000


class EventRows:
    """Events, usage and change-log methods of SqliteTx."""

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
