"""A tenant's rows as stored, for the JSONL export and import (a SqliteTx mixin)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import sqlean

from mnemex.errors import InvalidInputError
from mnemex.store.export import EXPORT_TABLES
from mnemex.text import value_key

_CHUNK = 500  # ids per IN (...) list: well below SQLite's bound on parameters
_ORDER = {
    "entity_aliases": "rowid",
    "memory_entities": "rowid",
    "usage": "rowid",
    "co_usage": "rowid",
}


class ExportRows:
    """Raw export and import methods of SqliteTx."""

    conn: Any
    tenant: str

    def _writable(self) -> None:
        raise NotImplementedError

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
        self.conn.execute("SAVEPOINT import_row")
        try:
            cursor = self.conn.execute(
                f"INSERT INTO {table} ({', '.join(names)}) "
                f"VALUES ({','.join('?' * len(names))}) ON CONFLICT DO NOTHING",
                [values[n] for n in names],
            )
        except sqlean.DatabaseError as exc:  # a constraint the row breaks: refused, not skipped
            self.conn.execute("ROLLBACK TO import_row")
            self.conn.execute("RELEASE import_row")
            raise InvalidInputError(table, f"row refused by the store: {exc}") from exc
        self.conn.execute("RELEASE import_row")
        return bool(cursor.rowcount)

    def import_rows(self, table: str, rows: Sequence[dict[str, Any]]) -> list[bool | str]:
        """`import_row` of each row, in order (SQLite has no round trips to save): True added,
        False already here, or why the store refused it."""
        out: list[bool | str] = []
        for row in rows:
            try:
                out.append(self.import_row(table, row))
            except InvalidInputError as exc:
                out.append(exc.message)
        return out

    def row_tenants(self, table: str, row_ids: Sequence[str]) -> dict[str, str]:
        """The tenant holding each of these ids' rows of `table`, for those held (ids are
        store-wide)."""
        if table not in EXPORT_TABLES:
            raise ValueError(f"not importable: {table}")
        columns = {c[1] for c in self.conn.execute(f"PRAGMA table_info({table})").fetchall()}
        if "id" not in columns:
            return {}
        found: dict[str, str] = {}
        unique = list(dict.fromkeys(row_ids))
        for start in range(0, len(unique), _CHUNK):
            chunk = unique[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT id, tenant FROM {table} WHERE id IN ({marks})", chunk
            ).fetchall()
            found.update({str(row[0]): str(row[1]) for row in rows})
        return found

    def entity_id_by_norm(self, norm: str) -> str | None:
        """This tenant's entity with this normalised name."""
        found = self.conn.execute(
            "SELECT id FROM entities WHERE tenant = ? AND norm = ?", (self.tenant, norm)
        ).fetchone()
        return None if found is None else str(found[0])

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
