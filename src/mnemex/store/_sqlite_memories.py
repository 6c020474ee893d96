"""Memory rows in SQLite: records, filters and FTS5 BM25 search (a mixin of SqliteTx)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from mnemex.clock import from_micros, to_micros
from mnemex.models import Memory
from mnemex.store.base import MemoryFilter, Temporal, TemporalRow

MEMORY_COLUMNS = (
    "id, tenant, content, content_hash, tags, entities, strength, source, context, meta, "
    "created_at, updated_at, observed_at, last_used, use_count, review_count, last_review, "
    "status, vault_path, superseded_by, kind, stability, pinned, duplicate_of, repeat_count"
)
_JSON_FIELDS = {"tags", "entities", "meta"}
_TIME_FIELDS = {"created_at", "updated_at", "observed_at", "last_used", "last_review"}
# Column weights for bm25(): content weighs most; tags and entity names help but never dominate.
BM25_WEIGHTS = (1.0, 0.6, 0.6)
_BM25_WEIGHTS = ", ".join(str(weight) for weight in BM25_WEIGHTS)
FTS_TOKENIZE = "porter unicode61 remove_diacritics 2"  # as migration 1 created memories_fts
UPDATABLE = {
    "content",
    "content_hash",
    "tags",
    "entities",
    "strength",
    "source",
    "context",
    "meta",
    "updated_at",
    "observed_at",
    "last_used",
    "use_count",
    "review_count",
    "last_review",
    "status",
    "vault_path",
    "superseded_by",
    "kind",
    "stability",
    "pinned",
    "duplicate_of",
    "repeat_count",
}


# `column IN_JSON` with `json_list(values)` as its parameter: one statement whatever the count
# (an `IN (?, ?, ...)` list is a new statement for every length) and no parameter limit.
IN_JSON = "IN (SELECT value FROM json_each(?))"


def json_list(values: Sequence[str]) -> str:
    """Values as the one parameter of an IN_JSON clause."""
    return json.dumps(list(values))


_EMPTY_JSON = {"[]": list, "{}": dict}  # most memories' tags, entities and meta


def _from_json(text: str) -> Any:
    empty = _EMPTY_JSON.get(text)
    return json.loads(text) if empty is None else empty()


def memory_from_row(row: Sequence[Any]) -> Memory:
    """A Memory from a row selected with MEMORY_COLUMNS."""
    return Memory(
        id=row[0],
        tenant=row[1],
        content=row[2],
        content_hash=row[3],
        tags=_from_json(row[4]),
        entities=_from_json(row[5]),
        strength=row[6],
        source=row[7],
        context=row[8],
        meta=_from_json(row[9]),
        created_at=from_micros(row[10]),
        updated_at=from_micros(row[11]),
        observed_at=None if row[12] is None else from_micros(row[12]),
        last_used=from_micros(row[13]),
        use_count=row[14],
        review_count=row[15],
        last_review=None if row[16] is None else from_micros(row[16]),
        status=row[17],
        vault_path=row[18],
        superseded_by=row[19],
        kind=row[20],
        stability=float(row[21]),
        pinned=bool(row[22]),
        duplicate_of=row[23],
        repeat_count=int(row[24]),
    )


def storage_value(name: str, value: Any) -> Any:
    """A Python value as its column value: JSON for lists and dicts, microseconds for times."""
    if value is None:
        return None
    if name in _JSON_FIELDS:
        return json.dumps(value, ensure_ascii=False, sort_keys=name == "meta")
    if name in _TIME_FIELDS:
        return to_micros(value)
    return value


def indexed_columns(memory: Memory) -> tuple[str, str, str]:
    """What memories_fts indexes for a memory: content, tags and entities as their columns hold
    them."""
    return (
        memory.content,
        storage_value("tags", memory.tags),
        storage_value("entities", memory.entities),
    )


_ORDERS = {"used": "m.last_used", "created": "COALESCE(m.observed_at, m.created_at)"}
_ID_TABLES = frozenset({"memories", "facts", "reviews", "entities"})


def filter_sql(
    flt: MemoryFilter, alias: str = "m", *, by_key: bool = False
) -> tuple[str, list[Any]]:
    """The WHERE fragment (without the tenant clause) and its parameters for a MemoryFilter.

    `by_key`: the query looks rows up by id; a unary `+` keeps SQLite from preferring the
    status index (which matches most rows) over the primary key.
    """
    clauses: list[str] = []
    params: list[Any] = []
    plus = "+" if by_key else ""
    if flt.statuses:
        clauses.append(f"{plus}{alias}.status IN ({','.join('?' * len(flt.statuses))})")
        params.extend(flt.statuses)
    if not flt.include_superseded:
        clauses.append(f"{alias}.superseded_by IS NULL")
    if flt.tags:
        clauses.append(
            f"EXISTS (SELECT 1 FROM json_each({alias}.tags) "
            f"WHERE json_each.value IN ({','.join('?' * len(flt.tags))}))"
        )
        params.extend(flt.tags)
    if flt.entity_ids:
        clauses.append(
            f"EXISTS (SELECT 1 FROM memory_entities me WHERE me.memory_id = {alias}.id "
            f"AND me.entity_id IN ({','.join('?' * len(flt.entity_ids))}))"
        )
        params.extend(flt.entity_ids)
    if flt.since is not None:
        clauses.append(f"COALESCE({alias}.observed_at, {alias}.created_at) >= ?")
        params.append(flt.since)
    if flt.until is not None:
        clauses.append(f"COALESCE({alias}.observed_at, {alias}.created_at) <= ?")
        params.append(flt.until)
    if flt.sources:
        clauses.append(f"{alias}.source IN ({','.join('?' * len(flt.sources))})")
        params.extend(flt.sources)
    if flt.min_strength is not None:
        clauses.append(f"{alias}.strength >= ?")
        params.append(flt.min_strength)
    if flt.max_strength is not None:
        clauses.append(f"{alias}.strength <= ?")
        params.append(flt.max_strength)
    return (" AND ".join(clauses) or "1"), params


def fts_match(terms: Sequence[str]) -> str:
    """An FTS5 MATCH expression that ORs quoted terms: user text can never be parsed as syntax."""
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


class MemoryRows:
    """Memory methods of SqliteTx; expects `conn`, `tenant` and `_writable()` from it."""

    conn: Any
    tenant: str

    def _writable(self) -> None:
        raise NotImplementedError

    def insert_memory(self, memory: Memory) -> None:
        """Insert a new memory row (the FTS index and change log follow by trigger)."""
        self._writable()
        self.conn.execute(
            f"INSERT INTO memories ({MEMORY_COLUMNS}) VALUES ({','.join('?' * 25)})",
            (
                memory.id,
                self.tenant,
                memory.content,
                memory.content_hash,
                storage_value("tags", memory.tags),
                storage_value("entities", memory.entities),
                memory.strength,
                memory.source,
                memory.context,
                storage_value("meta", memory.meta),
                to_micros(memory.created_at),
                to_micros(memory.updated_at),
                storage_value("observed_at", memory.observed_at),
                to_micros(memory.last_used),
                memory.use_count,
                memory.review_count,
                storage_value("last_review", memory.last_review),
                memory.status,
                memory.vault_path,
                memory.superseded_by,
                memory.kind,
                memory.stability,
                int(memory.pinned),
                memory.duplicate_of,
                memory.repeat_count,
            ),
        )

    def get_memories(self, ids: Sequence[str]) -> dict[str, Memory]:
        """Memories by id (missing or other tenants' ids are simply absent)."""
        rows = self.conn.execute(
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE +tenant = ? AND id {IN_JSON}",
            (self.tenant, json_list(ids)),
        ).fetchall()
        return {row[0]: memory_from_row(row) for row in rows}

    def update_memory(self, memory_id: str, fields: dict[str, Any]) -> bool:
        """Set some columns of one memory; False when it does not exist for this tenant."""
        self._writable()
        unknown = set(fields) - UPDATABLE
        if unknown:
            raise ValueError(f"not updatable: {sorted(unknown)}")
        if not fields:
            return bool(
                self.conn.execute(
                    "SELECT 1 FROM memories WHERE tenant = ? AND id = ?", (self.tenant, memory_id)
                ).fetchone()
            )
        names = sorted(fields)
        cursor = self.conn.execute(
            f"UPDATE memories SET {', '.join(f'{name} = ?' for name in names)} "
            "WHERE tenant = ? AND id = ?",
            (*(storage_value(name, fields[name]) for name in names), self.tenant, memory_id),
        )
        return bool(cursor.rowcount)

    def delete_memory(self, memory_id: str) -> bool:
        """Remove a memory for good (its links, usage and embedding go with it)."""
        self._writable()
        cursor = self.conn.execute(
            "DELETE FROM memories WHERE tenant = ? AND id = ?", (self.tenant, memory_id)
        )
        return bool(cursor.rowcount)

    def find_by_hash(self, content_hash: str) -> list[str]:
        """Live memories with exactly this content hash, oldest first."""
        rows = self.conn.execute(
            "SELECT id FROM memories WHERE tenant = ? AND content_hash = ? "
            "AND status IN ('active', 'promoted') ORDER BY seq",
            (self.tenant, content_hash),
        ).fetchall()
        return [row[0] for row in rows]

    def iter_memories(self, flt: MemoryFilter | None = None) -> Iterator[Memory]:
        """Every memory passing the filter, oldest first, fetched in pages."""
        where, params = filter_sql(flt or MemoryFilter(statuses=()))
        last = -1
        while True:
            rows = self.conn.execute(
                f"SELECT {MEMORY_COLUMNS}, m.seq FROM memories m WHERE m.tenant = ? AND m.seq > ? "
                f"AND {where} ORDER BY m.seq LIMIT 1000",
                (self.tenant, last, *params),
            ).fetchall()
            if not rows:
                return
            for row in rows:
                yield memory_from_row(row)
            last = rows[-1][-1]

    def temporal_rows(self, flt: MemoryFilter) -> list[TemporalRow]:
        """The few columns scoring needs, for every memory passing the filter."""
        where, params = filter_sql(flt)
        rows = self.conn.execute(
            "SELECT m.id, m.content, m.use_count, m.last_used, m.created_at, m.strength, m.tags, "
            "m.kind, m.stability, m.pinned, m.duplicate_of, m.review_count "
            f"FROM memories m WHERE m.tenant = ? AND {where} ORDER BY m.seq",
            (self.tenant, *params),
        ).fetchall()
        return [
            TemporalRow(
                row[0],
                row[1],
                row[2],
                row[3],
                row[4],
                row[5],
                json.loads(row[6]),
                kind=row[7],
                stability=float(row[8]),
                pinned=bool(row[9]),
                duplicate_of=row[10],
                review_count=int(row[11]),
            )
            for row in rows
        ]

    def filter_ids(self, ids: Sequence[str], flt: MemoryFilter) -> list[str]:
        """The ids (in the given order) of memories that pass the filter."""
        where, params = filter_sql(flt, by_key=True)
        keep: set[str] = set()
        unique = list(dict.fromkeys(ids))
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            rows = self.conn.execute(
                f"SELECT m.id FROM memories m WHERE +m.tenant = ? "
                f"AND m.id IN ({','.join('?' * len(chunk))}) AND {where}",
                (self.tenant, *chunk, *params),
            ).fetchall()
            keep.update(row[0] for row in rows)
        return [memory_id for memory_id in unique if memory_id in keep]

    def lexical_search(
        self, terms: Sequence[str], limit: int, flt: MemoryFilter
    ) -> list[tuple[str, float]]:
        """FTS5 BM25 over all memories passing the filter; higher score is better."""
        if not terms:
            return []
        where, params = filter_sql(flt, by_key=True)
        match = fts_match(terms)
        # Fast path: rank inside FTS5 alone, then filter the top rows by primary key. Joining
        # every match to `memories` before ranking costs more than the ranking itself.
        window = 4 * limit  # room for superseded and archived rows, which FTS5 still holds
        hits = self.conn.execute(
            f"SELECT m.id, f.score FROM (SELECT rowid, -bm25(memories_fts, {_BM25_WEIGHTS}) "
            "AS score FROM memories_fts WHERE memories_fts MATCH ? ORDER BY score DESC LIMIT ?) "
            f"AS f JOIN memories m ON m.seq = f.rowid WHERE +m.tenant = ? AND {where} "
            "ORDER BY f.score DESC LIMIT ?",
            (match, window, self.tenant, *params, limit),
        ).fetchall()
        if len(hits) >= limit or self._matches(match, window) < window:
            return [(row[0], float(row[1])) for row in hits]
        # Filters removed too many of the top rows (other tenants, archived...): rank with them.
        where, params = filter_sql(flt)
        rows = self.conn.execute(
            f"SELECT m.id, -bm25(memories_fts, {_BM25_WEIGHTS}) AS score "
            "FROM memories_fts JOIN memories m ON m.seq = memories_fts.rowid "
            f"WHERE memories_fts MATCH ? AND m.tenant = ? AND {where} "
            "ORDER BY score DESC LIMIT ?",
            (match, self.tenant, *params, limit),
        ).fetchall()
        return [(row[0], float(row[1])) for row in rows]

    def _matches(self, match: str, cap: int) -> int:
        """Indexed rows (all tenants) an FTS5 expression matches, counting at most `cap`."""
        row = self.conn.execute(
            "SELECT count(*) FROM (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? "
            "LIMIT ?)",
            (match, cap),
        ).fetchone()
        return int(row[0])

    def recent_ids(self, limit: int, flt: MemoryFilter, order: str = "used") -> list[str]:
        """The memories passing the filter, most recently used (`order="used"`) or most
        recently observed or saved (`order="created"`) first."""
        where, params = filter_sql(flt)
        column = _ORDERS.get(order)
        if column is None:
            raise ValueError(f"not a memory order: {order!r}")
        rows = self.conn.execute(
            f"SELECT m.id FROM memories m WHERE m.tenant = ? AND {where} "
            f"ORDER BY {column} DESC, m.id DESC LIMIT ?",
            (self.tenant, *params, limit),
        ).fetchall()
        return [row[0] for row in rows]

    def match_ids(self, table: str, prefix: str, limit: int) -> list[str]:
        """Ids of this tenant's rows of `table` that start with `prefix` (a range on the key)."""
        if table not in _ID_TABLES:
            raise ValueError(f"not a table with ids: {table!r}")
        rows = self.conn.execute(
            f"SELECT id FROM {table} WHERE tenant = ? AND id >= ? AND id < ? ORDER BY id LIMIT ?",
            (self.tenant, prefix, prefix + "\x7f", limit),
        ).fetchall()
        return [row[0] for row in rows]

    def count_memories(self) -> dict[str, int]:
        """Memory counts by status for this tenant."""
        rows = self.conn.execute(
            "SELECT status, count(*) FROM memories WHERE tenant = ? GROUP BY status",
            (self.tenant,),
        ).fetchall()
        return {row[0]: int(row[1]) for row in rows}

    def temporal_of(self, ids: Sequence[str]) -> dict[str, Temporal]:
        """(use_count, last_used, strength, kind, stability, duplicate_of) per memory id, for
        scoring candidates."""
        rows = self.conn.execute(
            "SELECT id, use_count, last_used, strength, kind, stability, duplicate_of "
            f"FROM memories WHERE tenant = ? AND id {IN_JSON}",  # memories_temporal answers it
            (self.tenant, json_list(ids)),
        ).fetchall()
        return {
            row[0]: Temporal(int(row[1]), int(row[2]), float(row[3]), row[4], float(row[5]), row[6])
            for row in rows
        }
