"""Numbered SQLite schema migrations, each in one transaction with its bookkeeping row.

A migration is a small function of a connection. `apply` is idempotent: it reads the applied
versions inside `BEGIN IMMEDIATE`, so processes opening a new file at once migrate it exactly once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mnemex.errors import StorageError

Connection = Any  # a sqlean connection; sqlean ships no type hints


def run_script(conn: Connection, script: str) -> None:
    """Run SQL statements one by one inside the caller's transaction.

    `executescript` would commit the open transaction first, breaking one-migration-one-transaction.
    """
    import sqlean

    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlean.complete_statement(statement):
            if statement.strip():
                conn.execute(statement)
            statement = ""
    if statement.strip():
        raise StorageError("incomplete SQL statement in a migration", statement=statement[:200])


def _m001_core(conn: Connection) -> None:
    """Memories with FTS5, entities, relations, facts, reviews, events, usage, embeddings."""
    run_script(
        conn,
        """
        CREATE TABLE memories (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            tenant TEXT NOT NULL,
            content TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            tags TEXT NOT NULL DEFAULT '[]',
            entities TEXT NOT NULL DEFAULT '[]',
            strength REAL NOT NULL DEFAULT 1.0 CHECK (strength >= 0 AND strength <= 2),
            source TEXT,
            context TEXT,
            meta TEXT NOT NULL DEFAULT '{}',
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            observed_at INTEGER,
            last_used INTEGER NOT NULL,
            use_count INTEGER NOT NULL DEFAULT 0,
            review_count INTEGER NOT NULL DEFAULT 0,
            last_review INTEGER,
            status TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'promoted', 'archived', 'deleted')),
            vault_path TEXT,
            superseded_by TEXT
        );
        CREATE INDEX memories_tenant_status ON memories (tenant, status, last_used);
        CREATE INDEX memories_tenant_hash ON memories (tenant, content_hash);
        CREATE INDEX memories_tenant_created ON memories (tenant, created_at);

        CREATE VIRTUAL TABLE memories_fts USING fts5 (
            content, tags, entities,
            content = 'memories', content_rowid = 'seq',
            tokenize = 'porter unicode61 remove_diacritics 2'
        );

        -- Every change another process (or another store object) must notice: vector index,
        -- graph and caches read it forward from the last sequence number they saw.
        CREATE TABLE change_log (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            tenant TEXT NOT NULL,
            memory_id TEXT NOT NULL,
            op TEXT NOT NULL
        );

        CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
            INSERT INTO memories_fts (rowid, content, tags, entities)
                VALUES (new.seq, new.content, new.tags, new.entities);
            INSERT INTO change_log (tenant, memory_id, op) VALUES (new.tenant, new.id, 'insert');
        END;
        CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
            INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities)
                VALUES ('delete', old.seq, old.content, old.tags, old.entities);
            INSERT INTO change_log (tenant, memory_id, op) VALUES (old.tenant, old.id, 'delete');
        END;
        CREATE TRIGGER memories_au_text AFTER UPDATE OF content, tags, entities ON memories BEGIN
            INSERT INTO memories_fts (memories_fts, rowid, content, tags, entities)
                VALUES ('delete', old.seq, old.content, old.tags, old.entities);
            INSERT INTO memories_fts (rowid, content, tags, entities)
                VALUES (new.seq, new.content, new.tags, new.entities);
        END;
        CREATE TRIGGER memories_au_log
            AFTER UPDATE OF content, tags, entities, status, superseded_by ON memories BEGIN
            INSERT INTO change_log (tenant, memory_id, op) VALUES (new.tenant, new.id, 'update');
        END;

        CREATE TABLE entities (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            tenant TEXT NOT NULL,
            name TEXT NOT NULL,
            norm TEXT NOT NULL,
            category TEXT,
            aliases TEXT NOT NULL DEFAULT '[]',
            tags TEXT NOT NULL DEFAULT '[]',
            summary TEXT,
            details TEXT NOT NULL DEFAULT '{}',
            strength REAL NOT NULL DEFAULT 1.0,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            expired_at INTEGER
        );
        CREATE UNIQUE INDEX entities_tenant_norm ON entities (tenant, norm);

        CREATE TABLE entity_aliases (
            tenant TEXT NOT NULL,
            alias_norm TEXT NOT NULL,
            entity_id TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
            PRIMARY KEY (tenant, alias_norm)
        );
        CREATE INDEX entity_aliases_entity ON entity_aliases (entity_id);

        CREATE TABLE memory_entities (
            tenant TEXT NOT NULL,
            memory_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
            entity_id TEXT NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
            PRIMARY KEY (memory_id, entity_id)
        );
        CREATE INDEX memory_entities_entity ON memory_entities (entity_id);

        CREATE TABLE relations (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            tenant TEXT NOT NULL,
            from_kind TEXT NOT NULL CHECK (from_kind IN ('entity', 'memory')),
            from_id TEXT NOT NULL,
            to_kind TEXT NOT NULL CHECK (to_kind IN ('entity', 'memory')),
            to_id TEXT NOT NULL,
            type TEXT NOT NULL,
            strength REAL NOT NULL DEFAULT 1.0,
            source_memory TEXT,
            created_at INTEGER NOT NULL,
            valid_from INTEGER,
            valid_to INTEGER,
            expired_at INTEGER,
            meta TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX relations_from ON relations (tenant, from_id);
        CREATE INDEX relations_to ON relations (tenant, to_id);
        CREATE UNIQUE INDEX relations_live_edge ON relations (tenant, from_id, to_id, type)
            WHERE expired_at IS NULL;

        CREATE TABLE facts (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            tenant TEXT NOT NULL,
            subject_id TEXT NOT NULL REFERENCES entities (id),
            subject TEXT NOT NULL,
            relation TEXT NOT NULL,
            object TEXT NOT NULL,
            object_id TEXT,
            statement TEXT NOT NULL,
            temporal_form TEXT NOT NULL DEFAULT 'unknown'
                CHECK (temporal_form IN ('ongoing', 'completed', 'habitual', 'unknown')),
            observed_at INTEGER NOT NULL,
            valid_from INTEGER NOT NULL,
            valid_to INTEGER,
            recorded_at INTEGER NOT NULL,
            status TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'superseded', 'pending', 'archived', 'deleted')),
            superseded_by TEXT,
            memory_id TEXT,
            confidence REAL NOT NULL DEFAULT 1.0,
            meta TEXT NOT NULL DEFAULT '{}'
        );
        -- The ledger's core promise, enforced by the store: one current value per key.
        CREATE UNIQUE INDEX facts_one_active ON facts (tenant, subject_id, relation)
            WHERE status = 'active';
        CREATE INDEX facts_key ON facts (tenant, subject_id, relation, valid_from);
        CREATE INDEX facts_memory ON facts (memory_id);

        CREATE TABLE reviews (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            tenant TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('supersede', 'conflict', 'merge', 'alias')),
            payload TEXT NOT NULL DEFAULT '{}',
            confidence REAL NOT NULL DEFAULT 0.0,
            status TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'approved', 'rejected')),
            created_at INTEGER NOT NULL,
            resolved_at INTEGER,
            resolution TEXT
        );
        CREATE INDEX reviews_tenant_status ON reviews (tenant, status, created_at);

        CREATE TABLE events (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            tenant TEXT NOT NULL,
            kind TEXT NOT NULL,
            at INTEGER NOT NULL,
            subject_id TEXT,
            payload TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX events_tenant_kind ON events (tenant, kind, at);

        CREATE TABLE usage (
            memory_id TEXT PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE,
            tenant TEXT NOT NULL,
            retrieved INTEGER NOT NULL DEFAULT 0,
            used INTEGER NOT NULL DEFAULT 0,
            last_retrieved INTEGER,
            last_used INTEGER
        );
        CREATE TABLE co_usage (
            tenant TEXT NOT NULL,
            a TEXT NOT NULL,
            b TEXT NOT NULL,
            count INTEGER NOT NULL DEFAULT 0,
            last_at INTEGER NOT NULL,
            PRIMARY KEY (tenant, a, b)
        );
        CREATE INDEX co_usage_b ON co_usage (tenant, b);

        CREATE TABLE embeddings (
            memory_id TEXT PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE,
            tenant TEXT NOT NULL,
            model TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            dim INTEGER NOT NULL,
            vector BLOB NOT NULL
        );
        CREATE INDEX embeddings_hash ON embeddings (model, content_hash);
        CREATE TRIGGER embeddings_ai AFTER INSERT ON embeddings BEGIN
            INSERT INTO change_log (tenant, memory_id, op)
                VALUES (new.tenant, new.memory_id, 'embed');
        END;
        CREATE TRIGGER embeddings_au AFTER UPDATE ON embeddings BEGIN
            INSERT INTO change_log (tenant, memory_id, op)
                VALUES (new.tenant, new.memory_id, 'embed');
        END;
        """,
    )


def _m002_tokens(conn: Connection) -> None:
    """API tokens: only a hash is kept; each token belongs to one tenant."""
    run_script(
        conn,
        """
        CREATE TABLE tokens (
            id TEXT PRIMARY KEY,
            tenant TEXT NOT NULL,
            name TEXT,
            token_hash TEXT NOT NULL UNIQUE,
            created_at INTEGER NOT NULL,
            last_used INTEGER,
            revoked_at INTEGER
        );
        CREATE INDEX tokens_tenant ON tokens (tenant);
        """,
    )


def _m003_fact_values(conn: Connection) -> None:
    """Facts by value: an indexed normalised object (value_key), and alias rulings by kind."""
    from mnemex.text import value_key

    conn.execute("ALTER TABLE facts ADD COLUMN object_key TEXT")
    rows = conn.execute("SELECT seq, object FROM facts").fetchall()
    conn.executemany(
        "UPDATE facts SET object_key = ? WHERE seq = ?", [(value_key(o), q) for q, o in rows]
    )
    run_script(
        conn,
        """
        CREATE INDEX facts_value ON facts (tenant, object_key);
        CREATE INDEX reviews_kind ON reviews (tenant, kind, status);
        """,
    )


def _m004_facts_by_status(conn: Connection) -> None:
    """A subject's facts by status: what it holds now, without reading its whole history."""
    conn.execute("CREATE INDEX facts_status ON facts (tenant, subject_id, status)")


def _m005_ledger_read_indexes(conn: Connection) -> None:
    """Reads the ledger makes on every save, without visiting a long history's rows: the
    relations a value is held under (a common value has thousands of facts), a subject's
    relations by status and its name, from an index alone; a subject's facts with one value.
    The key index gains the status column (it keeps its columns' order, and its name)."""
    run_script(
        conn,
        """
        CREATE INDEX facts_value_relations ON facts (tenant, object_key, status, relation,
            subject_id);
        DROP INDEX facts_key;
        CREATE INDEX facts_key ON facts (tenant, subject_id, relation, valid_from, status);
        CREATE INDEX facts_subject_name ON facts (tenant, subject_id, subject);
        CREATE INDEX facts_subject_value ON facts (tenant, subject_id, object_key);
        """,
    )


def _m006_memory_temporal_index(conn: Connection) -> None:
    """Search reads use counts, last use and strength of each of its ~100-200 candidates: from
    an index alone, one seek per id instead of two (0.34 -> 0.19 ms for 150 ids at 10k)."""
    run_script(
        conn,
        "CREATE INDEX memories_temporal ON memories (tenant, id, use_count, last_used, strength);",
    )


def _m007_phrase_vectors(conn: Connection) -> None:
    """Vectors of the short phrases the ledger compares (values, relation names), so a new
    process reads them instead of embedding them again: ~0.75 ms a save at 100,000 memories.
    Keyed by tenant, model and a digest of the phrase (the text itself is not kept).
    """
    run_script(
        conn,
        """
        CREATE TABLE phrase_vectors (
            tenant TEXT NOT NULL,
            model TEXT NOT NULL,
            digest TEXT NOT NULL,
            vector BLOB NOT NULL,
            PRIMARY KEY (tenant, model, digest)
        ) WITHOUT ROWID;
        """,
    )


def _m008_fact_value_counts(conn: Connection) -> None:
    """How many facts hold each value, by status and relation, kept up to date by triggers: the
    ledger asks on every save which relations hold a value, and counting a common value's facts
    grew with the store (up to 1,277 facts a value at 100,000 memories, 0.65 ms a question for
    the 15 most common; the triggers add ~20 us to a fact's status change). A fact without
    `object_key` (none is written so) counts under ''."""
    counted = "(new.tenant, coalesce(new.object_key, ''), new.status, new.relation, 1)"
    added = (
        f"INSERT INTO fact_value_counts VALUES {counted} "
        "ON CONFLICT DO UPDATE SET facts = facts + 1;"
    )
    removed = (
        "UPDATE fact_value_counts SET facts = facts - 1 WHERE tenant = old.tenant "
        "AND object_key = coalesce(old.object_key, '') AND status = old.status "
        "AND relation = old.relation;"
    )
    run_script(
        conn,
        f"""
        CREATE TABLE fact_value_counts (
            tenant TEXT NOT NULL,
            object_key TEXT NOT NULL,
            status TEXT NOT NULL,
            relation TEXT NOT NULL,
            facts INTEGER NOT NULL,
            PRIMARY KEY (tenant, object_key, status, relation)
        ) WITHOUT ROWID;
        INSERT INTO fact_value_counts
            SELECT tenant, coalesce(object_key, ''), status, relation, count(*) FROM facts
            GROUP BY 1, 2, 3, 4;
        CREATE TRIGGER facts_count_insert AFTER INSERT ON facts BEGIN {added} END;
        CREATE TRIGGER facts_count_delete AFTER DELETE ON facts BEGIN {removed} END;
        CREATE TRIGGER facts_count_update AFTER UPDATE OF tenant, object_key, status, relation
        ON facts WHEN old.tenant IS NOT new.tenant OR old.object_key IS NOT new.object_key
            OR old.status IS NOT new.status OR old.relation IS NOT new.relation
        BEGIN {removed} {added} END;
        """,
    )


def _m009_source_files(conn: Connection) -> None:
    """What `ingest` last saw of each file: its byte hash, how it was read (`parser`: reader
    version and chunk settings), and its chunks as [hash, memory id or null, first, last line],
    so an unchanged file costs one hash and a changed one replaces only the chunks that changed.
    """
    run_script(
        conn,
        """
        CREATE TABLE source_files (
            seq INTEGER PRIMARY KEY,
            tenant TEXT NOT NULL,
            path TEXT NOT NULL,
            kind TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            parser TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('present', 'deleted')),
            size INTEGER NOT NULL,
            modified_at INTEGER NOT NULL,
            ingested_at INTEGER NOT NULL,
            chunks TEXT NOT NULL DEFAULT '[]',
            UNIQUE (tenant, path)
        );
        """,
    )


def _m011_memory_lifetime(conn: Connection) -> None:
    """What a memory is (`kind`: its half-life), how far spaced uses stretched that half-life
    (`stability`), a real pin (the old `pinned` tag carried over), and duplicates folded into
    the memory they repeat (`duplicate_of`, `repeat_count` on the original). The temporal index
    covers the new columns search reads for its candidates."""
    run_script(
        conn,
        """
        ALTER TABLE memories ADD COLUMN kind TEXT NOT NULL DEFAULT 'note';
        ALTER TABLE memories ADD COLUMN stability REAL NOT NULL DEFAULT 1.0;
        ALTER TABLE memories ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE memories ADD COLUMN duplicate_of TEXT;
        ALTER TABLE memories ADD COLUMN repeat_count INTEGER NOT NULL DEFAULT 0;
        UPDATE memories SET pinned = 1
            WHERE EXISTS (SELECT 1 FROM json_each(memories.tags) WHERE value = 'pinned');
        DROP INDEX memories_temporal;
        CREATE INDEX memories_temporal ON memories
            (tenant, id, use_count, last_used, strength, kind, stability, duplicate_of);
        """,
    )


def _m012_entity_keys(conn: Connection) -> None:
    """Entity and alias keys fold accents ("José" and "Jose" are one key). A key that would now
    collide with another entity's keeps its old form: `mnemex maint scan` reports the pair as a
    duplicate to merge, so no entity is joined without a decision. Migration 14 runs it again:
    the key learnt to transliterate ("Søren Kjær" is "soren kjaer") and drop apostrophes."""
    from mnemex.text import normalize_name

    rows = conn.execute("SELECT id, tenant, name, norm FROM entities ORDER BY seq").fetchall()
    for entity_id, tenant, name, norm in rows:
        key = normalize_name(name)
        clash = conn.execute(
            "SELECT 1 FROM entities WHERE tenant = ? AND norm = ?", (tenant, key)
        ).fetchone()
        if key != norm and clash is None:
            conn.execute("UPDATE entities SET norm = ? WHERE id = ?", (key, entity_id))
    aliases = conn.execute("SELECT tenant, alias_norm, entity_id FROM entity_aliases").fetchall()
    for tenant, alias_norm, _entity in aliases:
        key = normalize_name(alias_norm)
        if key == alias_norm:
            continue
        clash = conn.execute(
            "SELECT 1 FROM entity_aliases WHERE tenant = ? AND alias_norm = ?", (tenant, key)
        ).fetchone()
        if clash is None:
            conn.execute(
                "UPDATE entity_aliases SET alias_norm = ? WHERE tenant = ? AND alias_norm = ?",
                (key, tenant, alias_norm),
            )


def _m013_bulk_loads(conn: Connection) -> None:
    """Nothing here: in PostgreSQL (pg_migrations.py) the BM25 statistics triggers learn to wait
    for the end of a bulk load; FTS5 keeps its own statistics."""


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
    """Apply every migration this file lacks; return the versions applied by this call."""
    applied: list[int] = []
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)"
    )
    latest = MIGRATIONS[-1][0]
    for version, name, migrate in MIGRATIONS:
        conn.execute("BEGIN IMMEDIATE")
        try:
            done = conn.execute(
                "SELECT 1 FROM schema_migrations WHERE version = ?", (version,)
            ).fetchone()
            if done is None:
                migrate(conn)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, name, now_micros),
                )
                applied.append(version)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    newest = conn.execute("SELECT max(version) FROM schema_migrations").fetchone()[0]
    if newest is not None and newest > latest:
        raise StorageError(
            f"the store's schema (version {newest}) is newer than this Mnemex (version {latest})",
            version=newest,
        )
    return applied
