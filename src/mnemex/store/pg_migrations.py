"""The numbered migrations of store/migrations.py for PostgreSQL: same tables, same numbers.

Each migration runs in one transaction with its bookkeeping row, under a global advisory lock,
so servers starting at once on a new database migrate it exactly once. What differs from SQLite:

- FTS5 becomes two columns of `memories`, `terms` (a tsvector of FTS5's own tokens: content
  weighted A, tags and entities B, one position per occurrence) and `doc_len`, with a GIN index;
  the BM25 statistics FTS5 keeps in its shadow tables are kept by triggers in `lexicon_docs`
  (documents and tokens per tenant) and `lexicon_terms` (documents per term per tenant).
- Embeddings gain an `embedding vector` column; an HNSW index per dimension is made on demand
  (postgres_vectors.py), as pgvector indexes only a fixed dimension.
- `tenants` lists every tenant that ever wrote (the backend adds it in its first write), so a
  whole store can be listed although every other table is confined to one tenant:
- every tenant table has row-level security (FORCE: the owner too) keyed on the session setting
  `mnemex.tenant`, a second guard behind the tenant clause of every query.

A migration that rewrites rows (3 and 8 backfill facts) lifts FORCE ROW LEVEL SECURITY on its
tables inside its own transaction, so the owner sees every tenant's rows while it runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from mnemex.errors import StorageError
from mnemex.store._pg_core import CORE_SCHEMA, CORE_TABLES

Connection = Any  # a psycopg connection in autocommit mode
MIGRATION_LOCK = 0x6D6E656D6578  # pg_advisory_xact_lock key for migrating ("mnemex")
TENANT_SETTING = "mnemex.tenant"


def _binary_text(statement: str) -> str:
    """Text columns compare byte by byte, as SQLite's do, whatever the database's locale."""
    if not statement.lstrip().startswith("CREATE TABLE"):
        return statement
    return re.sub(r"\bTEXT\b", 'TEXT COLLATE "C"', statement)


def _run(conn: Connection, script: str) -> None:
    """Run statements separated by a line holding only `--;` (bodies of functions hold `;`)."""
    for statement in script.split("\n--;\n"):
        if statement.strip():
            conn.execute(_binary_text(statement))


@contextmanager
def _every_tenant(conn: Connection, *tables: str) -> Iterator[None]:
    """Inside a migration's transaction: the owner (the migrating role) sees all rows."""
    for table in tables:
        conn.execute(f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY")
    yield
    for table in tables:
        conn.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")


def _guard(conn: Connection, *tables: str) -> None:
    """Row-level security on tenant tables: a row is visible only to its tenant's sessions."""
    for table in tables:
        conn.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")
        conn.execute(f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY")
        conn.execute(
            f"CREATE POLICY {table}_tenant ON {table} "
            f"USING (tenant = current_setting('{TENANT_SETTING}', true)) "
            f"WITH CHECK (tenant = current_setting('{TENANT_SETTING}', true))"
        )


def _m001_core(conn: Connection) -> None:
    """Memories with their term vectors, entities, relations, facts, reviews, events, usage,
    embeddings; row-level security on each."""
    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    _run(conn, CORE_SCHEMA)
    _guard(conn, *CORE_TABLES)


def _m002_tokens(conn: Connection) -> None:
    """API tokens: cross-tenant by design (the registry maps a secret to its tenant), no RLS."""
    _run(
        conn,
        """
CREATE TABLE tokens (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    name TEXT,
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    last_used BIGINT,
    revoked_at BIGINT
)
--;
CREATE INDEX tokens_tenant ON tokens (tenant)
""",
    )


def _m003_fact_values(conn: Connection) -> None:
    """Facts by value (the normalised object), alias rulings by kind."""
    from mnemex.text import value_key

    conn.execute('ALTER TABLE facts ADD COLUMN object_key TEXT COLLATE "C"')
    with _every_tenant(conn, "facts"), conn.cursor() as cursor:
        rows = cursor.execute("SELECT seq, object FROM facts").fetchall()
        cursor.executemany(
            "UPDATE facts SET object_key = %s WHERE seq = %s", [(value_key(o), q) for q, o in rows]
        )
    conn.execute("CREATE INDEX facts_value ON facts (tenant, object_key)")
    conn.execute("CREATE INDEX reviews_kind ON reviews (tenant, kind, status)")


def _m004_facts_by_status(conn: Connection) -> None:
    """A subject's facts by status."""
    conn.execute("CREATE INDEX facts_status ON facts (tenant, subject_id, status)")


def _m005_ledger_read_indexes(conn: Connection) -> None:
    """The ledger's per-save reads from indexes (see store/migrations.py, migration 5)."""
    _run(
        conn,
        """
CREATE INDEX facts_value_relations ON facts (tenant, object_key, status, relation, subject_id)
--;
DROP INDEX facts_key
--;
CREATE INDEX facts_key ON facts (tenant, subject_id, relation, valid_from, status)
--;
CREATE INDEX facts_subject_name ON facts (tenant, subject_id, subject)
--;
CREATE INDEX facts_subject_value ON facts (tenant, subject_id, object_key)
""",
    )


def _m006_memory_temporal_index(conn: Connection) -> None:
    """Use counts, last use and strength of search candidates from an index alone."""
    conn.execute(
        "CREATE INDEX memories_temporal ON memories (tenant, id) "
        "INCLUDE (use_count, last_used, strength)"
    )


def _m007_phrase_vectors(conn: Connection) -> None:
    """Vectors of the short phrases the ledger compares, by tenant, model and digest."""
    _run(
        conn,
        "CREATE TABLE phrase_vectors (tenant TEXT NOT NULL, model TEXT NOT NULL, "
        "digest TEXT NOT NULL, vector BYTEA NOT NULL, PRIMARY KEY (tenant, model, digest))",
    )
    _guard(conn, "phrase_vectors")


def _m008_fact_value_counts(conn: Connection) -> None:
    """How many facts hold each value, by status and relation, kept by a trigger."""
    _run(
        conn,
        """
CREATE TABLE fact_value_counts (
    tenant TEXT NOT NULL,
    object_key TEXT NOT NULL,
    status TEXT NOT NULL,
    relation TEXT NOT NULL,
    facts BIGINT NOT NULL,
    PRIMARY KEY (tenant, object_key, status, relation)
)
--;
CREATE FUNCTION mnemex_fact_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.tenant IS NOT DISTINCT FROM OLD.tenant
        AND NEW.object_key IS NOT DISTINCT FROM OLD.object_key
        AND NEW.status IS NOT DISTINCT FROM OLD.status
        AND NEW.relation IS NOT DISTINCT FROM OLD.relation THEN
        RETURN NEW;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE fact_value_counts SET facts = facts - 1 WHERE tenant = OLD.tenant
            AND object_key = coalesce(OLD.object_key, '') AND status = OLD.status
            AND relation = OLD.relation;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        INSERT INTO fact_value_counts AS c
            VALUES (NEW.tenant, coalesce(NEW.object_key, ''), NEW.status, NEW.relation, 1)
            ON CONFLICT (tenant, object_key, status, relation)
            DO UPDATE SET facts = c.facts + 1;
        RETURN NEW;
    END IF;
    RETURN OLD;
END
$$
--;
CREATE TRIGGER facts_counts AFTER INSERT OR UPDATE OR DELETE ON facts
    FOR EACH ROW EXECUTE FUNCTION mnemex_fact_counts()
""",
    )
    with _every_tenant(conn, "facts"):
        conn.execute(
            "INSERT INTO fact_value_counts SELECT tenant, coalesce(object_key, ''), status, "
            "relation, count(*) FROM facts GROUP BY 1, 2, 3, 4"
        )
    _guard(conn, "fact_value_counts")


def _m009_source_files(conn: Connection) -> None:
    """What `ingest` last saw of each file."""
    _run(
        conn,
        """
CREATE TABLE source_files (
    seq BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    tenant TEXT NOT NULL,
    path TEXT NOT NULL,
    kind TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    parser TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('present', 'deleted')),
    size BIGINT NOT NULL,
    modified_at BIGINT NOT NULL,
    ingested_at BIGINT NOT NULL,
    chunks TEXT NOT NULL DEFAULT '[]',
    UNIQUE (tenant, path)
)""",
    )
    _guard(conn, "source_files")


def _m011_memory_lifetime(conn: Connection) -> None:
    """What a memory is (`kind`), how far spaced uses stretched its half-life (`stability`), a
    real pin (the old `pinned` tag carried over) and duplicates folded into the memory they
    repeat (`duplicate_of`, `repeat_count` on the original), as on SQLite. `pinned` stays an
    integer 0/1, as SQLite stores it, so both backends export the same rows. The temporal
    index carries the new columns search reads of its candidates."""
    _run(
        conn,
        """
ALTER TABLE memories ADD COLUMN kind TEXT COLLATE "C" NOT NULL DEFAULT 'note'
--;
ALTER TABLE memories ADD COLUMN stability DOUBLE PRECISION NOT NULL DEFAULT 1.0
--;
ALTER TABLE memories ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1))
--;
ALTER TABLE memories ADD COLUMN duplicate_of TEXT COLLATE "C"
--;
ALTER TABLE memories ADD COLUMN repeat_count BIGINT NOT NULL DEFAULT 0
--;
DROP INDEX memories_temporal
--;
CREATE INDEX memories_temporal ON memories (tenant, id)
    INCLUDE (use_count, last_used, strength, kind, stability, duplicate_of)
""",
    )
    with _every_tenant(conn, "memories"):
        conn.execute("UPDATE memories SET pinned = 1 WHERE tags::jsonb ? 'pinned'")


def _m012_entity_keys(conn: Connection) -> None:
    """Entity and alias keys fold accents, as in SQLite's migration 12 (a clash keeps its key);
    migration 14 runs it again for the transliterating key."""
    from mnemex.text import normalize_name

    rows = conn.execute("SELECT id, tenant, name, norm FROM entities ORDER BY seq").fetchall()
    for entity_id, tenant, name, norm in rows:
        key = normalize_name(name)
        clash = conn.execute(
            "SELECT 1 FROM entities WHERE tenant = %s AND norm = %s", (tenant, key)
        ).fetchone()
        if key != norm and clash is None:
            conn.execute("UPDATE entities SET norm = %s WHERE id = %s", (key, entity_id))
    aliases = conn.execute("SELECT tenant, alias_norm FROM entity_aliases").fetchall()
    for tenant, alias_norm in aliases:
        key = normalize_name(alias_norm)
        clash = conn.execute(
            "SELECT 1 FROM entity_aliases WHERE tenant = %s AND alias_norm = %s", (tenant, key)
        ).fetchone()
        if key != alias_norm and clash is None:
            conn.execute(
                "UPDATE entity_aliases SET alias_norm = %s WHERE tenant = %s AND alias_norm = %s",
                (key, tenant, alias_norm),
            )


BULK_SETTING = "mnemex.bulk"  # 'on' in a bulk load's transactions (PostgresBackend.bulk_load)


def _m013_bulk_loads(conn: Connection) -> None:
    """The function the memories trigger counts BM25 statistics with counts nothing while the
    transaction has `mnemex.bulk` on: a bulk load counts them once at its end
    (`lexicon_rebuild`). Counted row by row, one transaction updating one tenant's
    `lexicon_docs` row 100,000 times leaves a chain of 100,000 versions of it, walked on every
    update."""
    _run(
        conn,
        """
CREATE OR REPLACE FUNCTION mnemex_lexicon_add(t TEXT, v TSVECTOR, n INTEGER, sign INTEGER)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO lexicon_docs AS d (tenant, docs, tokens)
        SELECT t, sign, sign * n WHERE coalesce(current_setting('mnemex.bulk', true), '') <> 'on'
        ON CONFLICT (tenant) DO UPDATE SET docs = d.docs + sign, tokens = d.tokens + sign * n;
    INSERT INTO lexicon_terms AS l (tenant, term, df)
        SELECT t, lexeme, sign FROM unnest(tsvector_to_array(v)) AS lexeme
        WHERE coalesce(current_setting('mnemex.bulk', true), '') <> 'on'
        ON CONFLICT (tenant, term) DO UPDATE SET df = l.df + sign;
$$
""",
    )


def lexicon_rebuild(conn: Connection, tenant: str) -> None:
    """Count a tenant's BM25 statistics afresh from its memories (what the trigger keeps row by
    row), inside the caller's transaction."""
    conn.execute("DELETE FROM lexicon_docs WHERE tenant = %s", (tenant,))
    conn.execute("DELETE FROM lexicon_terms WHERE tenant = %s", (tenant,))
    conn.execute(
        "INSERT INTO lexicon_docs (tenant, docs, tokens) SELECT tenant, count(*), "
        "coalesce(sum(doc_len), 0) FROM memories WHERE tenant = %s GROUP BY tenant",
        (tenant,),
    )
    conn.execute(
        "INSERT INTO lexicon_terms (tenant, term, df) SELECT m.tenant, lexeme, count(*) "
        "FROM memories m, unnest(tsvector_to_array(m.terms)) AS lexeme WHERE m.tenant = %s "
        "GROUP BY m.tenant, lexeme",
        (tenant,),
    )


MIGRATIONS: list[tuple[int, str, Callable[[Connection], None]]] = [
    (1, "core", _m001_core),
    (2, "tokens", _m002_tokens),
    (3, "fact values", _m003_fact_values),
    (4, "facts by status", _m004_facts_by_status),
    (5, "ledger read indexes", _m005_ledger_read_indexes),
    (6, "memory temporal index", _m006_memory_temporal_index),
    (7, "phrase vectors", _m007_phrase_vectors),
    (8, "fact value counts", _m008_fact_value_counts),
    (9, "source files", _m009_source_files),
    (11, "memory lifetime", _m011_memory_lifetime),
    (12, "accent-free entity keys", _m012_entity_keys),
    (13, "bulk loads", _m013_bulk_loads),
    (14, "transliterated entity keys", _m012_entity_keys),
]


def apply(conn: Connection, now_micros: int) -> list[int]:
    """Apply every migration the database lacks; return the versions applied by this call."""
    applied: list[int] = []
    latest = MIGRATIONS[-1][0]
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
        )
    for version, name, migrate in MIGRATIONS:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            done = conn.execute(
                "SELECT 1 FROM schema_migrations WHERE version = %s", (version,)
            ).fetchone()
            if done is None:
                migrate(conn)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (%s, %s, %s)",
                    (version, name, now_micros),
                )
                applied.append(version)
    newest = conn.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]
    if newest is not None and newest > latest:
        raise StorageError(
            f"the store's schema (version {newest}) is newer than this Mnemex (version {latest})",
            version=newest,
        )
    return applied
