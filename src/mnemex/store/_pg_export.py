"""A tenant's rows as stored, for the JSONL export and import, in PostgreSQL (a PgTx mixin).

Rows come out with the same columns, in the same order and insertion order, as SQLite gives
them, so one store exported from either backend is the same JSONL, byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from mnemex.store._pg_memories import term_vector
from mnemex.store.export import EXPORT_TABLES
from mnemex.text import value_key

_HIDDEN = frozenset({"seq", "tenant", "terms", "doc_len"})  # PostgreSQL's own columns


class PgExportRows:
    """Raw export and import methods of PgTx."""

    conn: Any
    tenant: str
    shared: dict[Any, Any]

    def _writable(self) -> None:
        raise NotImplementedError

    def _columns(self, table: str) -> list[str]:
        key = ("columns", table)
        cached: list[str] | None = self.shared.get(key)
        if cached is None:
            rows = self.conn.execute(
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = %s "
                "ORDER BY ordinal_position",
                (table,),
            ).fetchall()
            cached = self.shared[key] = [str(row[0]) for row in rows]
        return cached

    def export_rows(self, table: str) -> Iterator[dict[str, Any]]:
        """Every row of this tenant in `table`, as column -> stored value, in insertion order."""
        if table not in EXPORT_TABLES:
            raise ValueError(f"not exportable: {table}")
        names = [name for name in self._columns(table) if name not in _HIDDEN]
        last = -1
        while True:
            rows = self.conn.execute(
                f"SELECT seq, {', '.join(names)} FROM {table} WHERE tenant = %s AND seq > %s "
                "ORDER BY seq LIMIT 2000",
                (self.tenant, last),
            ).fetchall()
            if not rows:
                return
            for row in rows:
                yield dict(zip(names, row[1:], strict=True))
            last = rows[-1][0]

    def _insert(self, table: str, row: dict[str, Any]) -> tuple[str, list[Any]]:
        """The statement inserting one exported row into this tenant, and its parameters."""
        if table not in EXPORT_TABLES:
            raise ValueError(f"not importable: {table}")
        columns = set(self._columns(table)) - _HIDDEN
        values = {k: v for k, v in row.items() if k in columns}
        values["tenant"] = self.tenant
        if table == "facts" and isinstance(values.get("object"), str):
            values["object_key"] = value_key(values["object"])  # an older export lacks it
        names = sorted(values)
        marks = ["%s"] * len(names)
        params = [values[n] for n in names]
        if table == "memories":
            content, tags = str(values.get("content", "")), str(values.get("tags", "[]"))
            terms, length = term_vector((content, tags, str(values.get("entities", "[]"))))
            names += ["terms", "doc_len"]
            marks += ["%s::tsvector", "%s"]
            params += [terms, length]
        sql = (
            f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join(marks)}) "
            "ON CONFLICT DO NOTHING"
        )
        return sql, params

    def import_row(self, table: str, row: dict[str, Any]) -> bool:
        """Insert one exported row into this tenant; False when a row with its key exists."""
        self._writable()
        sql, params = self._insert(table, row)
        return bool(self.conn.execute(sql, params).rowcount)

    def import_rows(self, table: str, rows: Sequence[dict[str, Any]]) -> list[bool | str]:
        """`import_row` of each row (True added, False already here), sent in one pipeline per
        run of rows with the same columns: a round trip per batch, not per row. A batch the
        store refuses is replayed row by row, so the error is the one that row raises."""
        import psycopg

        self._writable()
        statements = [self._insert(table, row) for row in rows]
        added: list[bool | str] = []
        start = 0
        while start < len(statements):
            sql = statements[start][0]
            end = start
            while end < len(statements) and statements[end][0] == sql:
                end += 1
            batch = [params for _, params in statements[start:end]]
            self.conn.execute("SAVEPOINT import_rows")
            got: list[bool] = []
            try:
                with self.conn.cursor() as cursor:
                    cursor.executemany(sql + " RETURNING 1", batch, returning=True)
                    for _ in batch:
                        got.append(bool(cursor.fetchall()))
                        cursor.nextset()
            except psycopg.Error:
                self.conn.execute("ROLLBACK TO import_rows")
                got = [bool(self.conn.execute(sql, params).rowcount) for params in batch]
            self.conn.execute("RELEASE import_rows")
            added += got
            start = end
        return added

    def row_tenants(self, table: str, row_ids: Sequence[str]) -> dict[str, str]:
        """The tenant holding each of these ids' rows of `table`, for those held (ids are
        store-wide).

        Row-level security hides other tenants' rows even from the owner, so each tenant listed
        in `tenants` is asked in turn, under its own setting restored afterwards, for the ids
        not found yet: one query per tenant for the whole batch."""
        if table not in EXPORT_TABLES:
            raise ValueError(f"not importable: {table}")
        if "id" not in self._columns(table):
            return {}
        sql = f"SELECT id FROM {table} WHERE tenant = %s AND id = ANY(%s)"
        wanted = list(dict.fromkeys(row_ids))
        found = {str(row[0]): self.tenant for row in self.conn.execute(sql, (self.tenant, wanted))}
        others = [
            str(row[0])
            for row in self.conn.execute(
                "SELECT name FROM tenants WHERE name <> %s ORDER BY name", (self.tenant,)
            )
        ]
        try:
            for other in others:
                missing = [i for i in wanted if i not in found]
                if not missing:
                    break
                self.conn.execute("SELECT set_config('mnemex.tenant', %s, true)", (other,))
                for row in self.conn.execute(sql, (other, missing)):
                    found[str(row[0])] = other
        finally:
            if others:
                self.conn.execute("SELECT set_config('mnemex.tenant', %s, true)", (self.tenant,))
        return found

    def entity_id_by_norm(self, norm: str) -> str | None:
        """This tenant's entity with this normalised name."""
        found = self.conn.execute(
            "SELECT id FROM entities WHERE tenant = %s AND norm = %s", (self.tenant, norm)
        ).fetchone()
        return None if found is None else str(found[0])

    def table_counts(self) -> dict[str, int]:
        """Rows per table for this tenant."""
        return {
            table: int(
                self.conn.execute(
                    f"SELECT count(*) FROM {table} WHERE tenant = %s", (self.tenant,)
                ).fetchone()[0]
            )
            for table in EXPORT_TABLES
        }
