"""A tenant's rows as stored, for the JSONL export and import (a SqliteTx mixin)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import sqlean

from mnemex.errors import InvalidInputError
from mnemex.store.export import EXPORT_TABLES
from mnemex.text import value_key

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

    def row_tenant(self, table: str, row_id: str) -> str | None:
        """The tenant holding the row of `table` with this id, if any (ids are store-wide)."""
        if table not in EXPORT_TABLES:
            raise ValueError(f"not importable: {table}")
        columns = {c[1] for c in self.conn.execute(f"PRAGMA table_info({table})").fetchall()}
        if "id" not in columns:
            return None
        found = self.conn.execute(f"SELECT tenant FROM {table} WHERE id = ?", (row_id,)).fetchone()
        return None if found is None else str(found[0])

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
