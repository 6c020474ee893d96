"""Memory rows in PostgreSQL: records, filters, term vectors and BM25 in SQL (a PgTx mixin).

A memory's `terms` column is a tsvector of the tokens FTS5 makes of it (store/fts_tokens.py),
so a query matches what it matches on SQLite: each term carries one position per occurrence,
weighted A in content and B in tags or entities (FTS5's column weights 1.0 and 0.6, as in
retrieval/bm25.py). Ranking is FTS5's bm25() computed in SQL over the tenant's statistics that
triggers keep in `lexicon_docs` and `lexicon_terms`.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from mnemex.clock import to_micros
from mnemex.models import Memory
from mnemex.store._sqlite_memories import (
    BM25_WEIGHTS,
    MEMORY_COLUMNS,
    UPDATABLE,
    indexed_columns,
    memory_from_row,
    storage_value,
)
from mnemex.store.base import MemoryFilter, Temporal, TemporalRow
from mnemex.store.fts_tokens import tokenizer

K1 = 1.2  # FTS5's bm25() constants
B = 0.75
_CAP = 255  # occurrences of a term kept per field (PostgreSQL keeps 256 positions a lexeme)
_MAX_LEXEME = 2046  # bytes; PostgreSQL refuses longer lexemes
_ORDERS = {"used": "m.last_used", "created": "COALESCE(m.observed_at, m.created_at)"}
_ID_TABLES = frozenset({"memories", "facts", "reviews", "entities"})
_TEXT_COLUMNS = {"content", "tags", "entities"}


def _quoted(lexeme: str) -> str:
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def term_vector(columns: tuple[str, str, str]) -> tuple[str, int]:
    """A memory's tsvector literal and its length in tokens (all fields, as FTS5 counts)."""
    terms, _, in_content = tokenizer().tokens([columns])
    main: Counter[str] = Counter()
    other: Counter[str] = Counter()
    for term, content in zip(terms, in_content, strict=True):
        (main if content else other)[term] += 1
    parts = []
    for term in sorted(set(main) | set(other)):
        if len(term.encode("utf-8")) > _MAX_LEXEME:
            continue
        a, b = min(main[term], _CAP), min(other[term], _CAP)
        positions = [f"{p}A" for p in range(1, a + 1)] + [f"{p}B" for p in range(a + 1, a + b + 1)]
        parts.append(f"{_quoted(term)}:{','.join(positions)}")
    return " ".join(parts), len(terms)


def ts_query(terms: Sequence[str]) -> str:
    """A tsquery literal OR'ing lexemes as they are (no parsing, no stemming)."""
    return " | ".join(_quoted(term) for term in dict.fromkeys(terms))


def filter_sql(flt: MemoryFilter, alias: str = "m") -> tuple[str, list[Any]]:
    """The WHERE fragment (without the tenant clause) and its parameters for a MemoryFilter."""
    clauses: list[str] = []
    params: list[Any] = []
    if flt.statuses:
        clauses.append(f"{alias}.status = ANY(%s)")
        params.append(list(flt.statuses))
    if not flt.include_superseded:
        clauses.append(f"{alias}.superseded_by IS NULL")
    if flt.tags:
        clauses.append(f"{alias}.tags::jsonb ?| %s")
        params.append(list(flt.tags))
    if flt.entity_ids:
        clauses.append(
            f"EXISTS (SELECT 1 FROM memory_entities me WHERE me.memory_id = {alias}.id "
            "AND me.entity_id = ANY(%s))"
        )
        params.append(list(flt.entity_ids))
    if flt.since is not None:
        clauses.append(f"COALESCE({alias}.observed_at, {alias}.created_at) >= %s")
        params.append(flt.since)
    if flt.until is not None:
        clauses.append(f"COALESCE({alias}.observed_at, {alias}.created_at) <= %s")
        params.append(flt.until)
    if flt.sources:
        clauses.append(f"{alias}.source = ANY(%s)")
        params.append(list(flt.sources))
    if flt.min_strength is not None:
        clauses.append(f"{alias}.strength >= %s")
        params.append(flt.min_strength)
    if flt.max_strength is not None:
        clauses.append(f"{alias}.strength <= %s")
        params.append(flt.max_strength)
    return (" AND ".join(clauses) or "TRUE"), params


def _pg_value(name: str, value: Any) -> Any:
    """A field's column value; `pinned` is an integer 0/1 (a bool would not assign to it)."""
    if name == "pinned" and value is not None:
        return int(bool(value))
    return storage_value(name, value)


def idf(docs: int, held: int) -> float:
    """FTS5's inverse document frequency (a tiny positive value for very common terms)."""
    rarity = math.log((docs - held + 0.5) / (held + 0.5))
    return rarity if rarity > 0.0 else 1e-6


class PgMemoryRows:
    """Memory methods of PgTx; expects `conn`, `tenant` and `_writable()` from it."""

    conn: Any
    tenant: str

    def _writable(self) -> None:
        raise NotImplementedError

    def insert_memory(self, memory: Memory) -> None:
        """Insert a new memory row with its term vector (statistics and change log by trigger)."""
        self._writable()
        terms, length = term_vector(indexed_columns(memory))
        self.conn.execute(
            f"INSERT INTO memories ({MEMORY_COLUMNS}, terms, doc_len) "
            f"VALUES ({', '.join(['%s'] * 25)}, %s::tsvector, %s)",
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
                terms,
                length,
            ),
        )

    def get_memories(self, ids: Sequence[str]) -> dict[str, Memory]:
        """Memories by id (missing or other tenants' ids are simply absent)."""
        rows = self.conn.execute(
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE tenant = %s AND id = ANY(%s)",
            (self.tenant, list(ids)),
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
                    "SELECT 1 FROM memories WHERE tenant = %s AND id = %s",
                    (self.tenant, memory_id),
                ).fetchone()
            )
        names = sorted(fields)
        sets = [f"{name} = %s" for name in names]
        values = [_pg_value(name, fields[name]) for name in names]
        if _TEXT_COLUMNS & set(fields):
            current = self.get_memories([memory_id]).get(memory_id)
            if current is None:
                return False
            for name in _TEXT_COLUMNS & set(fields):
                setattr(current, name, fields[name])
            terms, length = term_vector(indexed_columns(current))
            sets += ["terms = %s::tsvector", "doc_len = %s"]
            values += [terms, length]
        cursor = self.conn.execute(
            f"UPDATE memories SET {', '.join(sets)} WHERE tenant = %s AND id = %s",
            (*values, self.tenant, memory_id),
        )
        return bool(cursor.rowcount)

    def delete_memory(self, memory_id: str) -> bool:
        """Remove a memory for good (its links, usage and embedding go with it)."""
        self._writable()
        cursor = self.conn.execute(
            "DELETE FROM memories WHERE tenant = %s AND id = %s", (self.tenant, memory_id)
        )
        return bool(cursor.rowcount)

    def find_by_hash(self, content_hash: str) -> list[str]:
        """Live memories with exactly this content hash, oldest first."""
        rows = self.conn.execute(
            "SELECT id FROM memories WHERE tenant = %s AND content_hash = %s "
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
                f"SELECT {MEMORY_COLUMNS}, m.seq FROM memories m WHERE m.tenant = %s "
                f"AND m.seq > %s AND {where} ORDER BY m.seq LIMIT 1000",
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
            f"FROM memories m WHERE m.tenant = %s AND {where} ORDER BY m.seq",
            (self.tenant, *params),
        ).fetchall()
        return [
            TemporalRow(
                row[0],
                row[1],
                int(row[2]),
                int(row[3]),
                int(row[4]),
                float(row[5]),
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
        where, params = filter_sql(flt)
        unique = list(dict.fromkeys(ids))
        rows = self.conn.execute(
            f"SELECT m.id FROM memories m WHERE m.tenant = %s AND m.id = ANY(%s) AND {where}",
            (self.tenant, unique, *params),
        ).fetchall()
        keep = {row[0] for row in rows}
        return [memory_id for memory_id in unique if memory_id in keep]

    # -- BM25 -----------------------------------------------------------------------------------

    def lexicon_stats(self, terms: Sequence[str]) -> tuple[int, int, dict[str, int]]:
        """The tenant's memories, their tokens, and how many memories hold each term."""
        row = self.conn.execute(
            "SELECT docs, tokens FROM lexicon_docs WHERE tenant = %s", (self.tenant,)
        ).fetchone()
        docs, tokens = (0, 0) if row is None else (int(row[0]), int(row[1]))
        rows = self.conn.execute(
            "SELECT term, df FROM lexicon_terms WHERE tenant = %s AND term = ANY(%s) AND df > 0",
            (self.tenant, list(dict.fromkeys(terms))),
        ).fetchall()
        return docs, tokens, {str(term): int(df) for term, df in rows}

    def bm25_top(
        self,
        weighted: Sequence[tuple[str, float]],
        avgdl: float,
        limit: int,
        flt: MemoryFilter | None = None,
    ) -> list[tuple[str, float]]:
        """The `limit` best memories by FTS5's bm25() for (term, idf) pairs, best first, ties in
        saving order; a term listed twice scores twice (two query words stemming alike)."""
        if not weighted or limit <= 0:
            return []
        where, params = ("TRUE", []) if flt is None else filter_sql(flt)
        content, other = BM25_WEIGHTS[0], BM25_WEIGHTS[1]
        rows = self.conn.execute(
            "SELECT m.id, sum(q.idf * f.freq * %s / (f.freq + %s * (%s + %s * m.doc_len / %s))) "
            "AS score FROM memories m "
            "CROSS JOIN LATERAL unnest(m.terms) AS u (lexeme, positions, weights) "
            "JOIN unnest(%s::text[], %s::float8[]) AS q (term, idf) ON q.term = u.lexeme "
            "CROSS JOIN LATERAL (SELECT sum(CASE w WHEN 'A' THEN %s ELSE %s END) AS freq "
            "FROM unnest(u.weights) AS w) AS f "
            f"WHERE m.tenant = %s AND m.terms @@ %s::tsquery AND {where} "
            "GROUP BY m.id, m.seq ORDER BY score DESC, m.seq LIMIT %s",
            (
                K1 + 1.0,
                K1,
                1.0 - B,
                B,
                max(avgdl, 1e-9),
                [term for term, _ in weighted],
                [weight for _, weight in weighted],
                content,
                other,
                self.tenant,
                ts_query([term for term, _ in weighted]),
                *params,
                limit,
            ),
        ).fetchall()
        return [(row[0], float(row[1])) for row in rows]

    def lexical_search(
        self, terms: Sequence[str], limit: int, flt: MemoryFilter
    ) -> list[tuple[str, float]]:
        """BM25 over this tenant's memories passing the filter; higher score is better."""
        if not terms:
            return []
        lexemes = [term for each in tokenizer().terms(terms) for term in each]
        docs, tokens, dfs = self.lexicon_stats(lexemes)
        weighted = [(term, idf(docs, dfs[term])) for term in lexemes if term in dfs]
        return self.bm25_top(weighted, tokens / docs if docs else 1.0, limit, flt)

    # -- lists and counts -----------------------------------------------------------------------

    def recent_ids(self, limit: int, flt: MemoryFilter, order: str = "used") -> list[str]:
        """The memories passing the filter, most recently used or observed first."""
        where, params = filter_sql(flt)
        column = _ORDERS.get(order)
        if column is None:
            raise ValueError(f"not a memory order: {order!r}")
        rows = self.conn.execute(
            f"SELECT m.id FROM memories m WHERE m.tenant = %s AND {where} "
            f"ORDER BY {column} DESC, m.id DESC LIMIT %s",
            (self.tenant, *params, limit),
        ).fetchall()
        return [row[0] for row in rows]

    def match_ids(self, table: str, prefix: str, limit: int) -> list[str]:
        """Ids of this tenant's rows of `table` that start with `prefix` (a range on the key)."""
        if table not in _ID_TABLES:
            raise ValueError(f"not a table with ids: {table!r}")
        rows = self.conn.execute(
            f"SELECT id FROM {table} WHERE tenant = %s AND id >= %s AND id < %s "
            'ORDER BY id COLLATE "C" LIMIT %s',
            (self.tenant, prefix, prefix + "\x7f", limit),
        ).fetchall()
        return [row[0] for row in rows]

    def count_memories(self) -> dict[str, int]:
        """Memory counts by status for this tenant."""
        rows = self.conn.execute(
            "SELECT status, count(*) FROM memories WHERE tenant = %s GROUP BY status",
            (self.tenant,),
        ).fetchall()
        return {row[0]: int(row[1]) for row in rows}

    def temporal_of(self, ids: Sequence[str]) -> dict[str, Temporal]:
        """(use_count, last_used, strength, kind, stability, duplicate_of) per memory id, for
        scoring candidates (memories_temporal answers it)."""
        rows = self.conn.execute(
            "SELECT id, use_count, last_used, strength, kind, stability, duplicate_of "
            "FROM memories WHERE tenant = %s AND id = ANY(%s)",
            (self.tenant, list(ids)),
        ).fetchall()
        return {
            row[0]: Temporal(int(row[1]), int(row[2]), float(row[3]), row[4], float(row[5]), row[6])
            for row in rows
        }
