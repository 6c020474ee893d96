"""Schema migrations: from a blank file, idempotent on re-run, refusing a newer schema."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlean

from mnemex import StorageError
from mnemex.store import migrations
from mnemex.store.sqlite import SqliteBackend


def _tables(path: Path) -> set[str]:
    conn = sqlean.connect(str(path))
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    finally:
        conn.close()
    return {row[0] for row in rows}


def test_blank_file_gets_every_table(tmp_path: Path) -> None:
    path = tmp_path / "blank.db"
    SqliteBackend(str(path)).close()
    expected = {
        "memories",
        "memories_fts",
        "entities",
        "entity_aliases",
        "memory_entities",
        "relations",
        "facts",
        "reviews",
        "events",
        "usage",
        "co_usage",
        "embeddings",
        "change_log",
        "tokens",
        "source_files",
        "schema_migrations",
    }
    assert expected <= _tables(path)


def test_every_row_table_has_a_tenant_column(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    SqliteBackend(str(path)).close()
    conn = sqlean.connect(str(path))
    skip = {"schema_migrations", "sqlite_sequence"}
    for table in _tables(path) - skip:
        if table.startswith("memories_fts"):
            continue  # the FTS index is keyed by memory rowid; rows are filtered via memories
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        assert "tenant" in columns, table
    conn.close()


def test_reapplying_is_a_no_op(tmp_path: Path) -> None:
    path = tmp_path / "again.db"
    SqliteBackend(str(path)).close()
    conn = sqlean.connect(str(path), isolation_level=None)
    assert migrations.apply(conn, 0) == []
    versions = [row[0] for row in conn.execute("SELECT version FROM schema_migrations")]
    assert versions == [m[0] for m in migrations.MIGRATIONS]
    conn.close()
    SqliteBackend(str(path)).close()


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    SqliteBackend(str(path)).close()
    conn = sqlean.connect(str(path), isolation_level=None)
    conn.execute("INSERT INTO schema_migrations VALUES (999, 'from the future', 0)")
    conn.close()
    with pytest.raises(StorageError):
        SqliteBackend(str(path))


def test_a_non_database_file_is_a_storage_error(tmp_path: Path) -> None:
    path = tmp_path / "not.db"
    path.write_bytes(b"this is not a sqlite file at all" * 100)
    with pytest.raises(StorageError):
        SqliteBackend(str(path))


def test_migration_3_indexes_facts_by_their_normalised_value(tmp_path: Path) -> None:
    path = tmp_path / "v2.db"
    conn = sqlean.connect(str(path))
    conn.isolation_level = None
    conn.execute(
        "CREATE TABLE schema_migrations ("
        "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)"
    )
    for version, name, migrate in migrations.MIGRATIONS[:2]:
        migrate(conn)
        conn.execute("INSERT INTO schema_migrations VALUES (?, ?, 0)", (version, name))
    conn.execute(
        "INSERT INTO entities (id, tenant, name, norm, created_at, updated_at) "
        "VALUES ('e1', 'default', 'Alice', 'alice', 0, 0)"
    )
    conn.execute(
        "INSERT INTO facts (id, tenant, subject_id, subject, relation, object, statement, "
        "observed_at, valid_from, recorded_at) VALUES "
        "('f1', 'default', 'e1', 'Alice', 'editor', ' The Neovim. ', 's', 0, 0, 0)"
    )
    assert migrations.apply(conn, 0) == [v for v, _, _ in migrations.MIGRATIONS[2:]]
    indexes = {row[1] for row in conn.execute("PRAGMA index_list(facts)")}
    assert {"facts_value", "facts_status", "facts_subject_value"} <= indexes
    conn.close()
    backend = SqliteBackend(str(path))
    with backend.read("default") as tx:
        assert [f.id for f in tx.facts_with_value("neovim")] == ["f1"]
    backend.close()


def test_per_save_ledger_reads_use_a_narrow_index(tmp_path: Path) -> None:
    """value_relations, relation_counts and subject_name run on every save: a plan that visits
    the facts table reads a row per fact of a common value or of the user (thousands at 100k);
    value_relations reads the kept counts of migration 8 instead."""
    backend = SqliteBackend(str(tmp_path / "plans.db"))
    issued: list[str] = []
    try:
        with backend.read("default") as tx:
            tx.conn.set_trace_callback(issued.append)
            tx.value_relations("neovim", ("active", "superseded"), exclude_subject="e1")
            tx.subject_name("e1")
            tx.relation_counts(["e1"], ("active", "superseded"))
            tx.facts_with_value("neovim", status="pending")
            tx.facts_with_value("neovim", subject_id="e1")
            tx.facts_for_key("e1", "editor")
            tx.facts_for_key("e1", None, ("active", "pending"))
            tx.facts_for_key("e1", "editor", ("active",))
            tx.conn.set_trace_callback(None)
            plans = [
                " ".join(str(row[3]) for row in tx.conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
                for sql in issued
                if sql.lstrip().upper().startswith("SELECT")
            ]
    finally:
        backend.close()
    assert len(plans) == 8
    # A value's relations: its kept counts, less the subject's own facts found by subject.
    counts = "fact_value_counts USING PRIMARY KEY (tenant=? AND object_key=? AND status=?)"
    assert counts in plans[0], plans
    assert "facts_subject_value (tenant=? AND subject_id=? AND object_key=?)" in plans[0], plans
    assert all("COVERING INDEX" in plan for plan in plans[1:3]), plans
    # A status or a subject narrows a value's facts by index, not by reading each of them.
    assert "facts_value_relations (tenant=? AND object_key=? AND status=?)" in plans[3], plans
    assert "facts_subject_value (tenant=? AND subject_id=? AND object_key=?)" in plans[4], plans
    # One key's history, or a subject's current facts: not every fact of the subject (the
    # user has thousands), whichever index would also give the order the store lists them in.
    assert "facts_key (tenant=? AND subject_id=? AND relation=?)" in plans[5], plans
    assert "facts_status (tenant=? AND subject_id=? AND status=?)" in plans[6], plans
    # A key's current value: the one row of the partial unique index, not the subject's others.
    assert "facts_one_active (tenant=? AND subject_id=? AND relation=?)" in plans[7], plans


def test_search_reads_candidates_use_counts_from_an_index_alone(tmp_path: Path) -> None:
    """temporal_of runs on every search for 100-200 candidates: one index seek each, no row."""
    backend = SqliteBackend(str(tmp_path / "plans.db"))
    issued: list[str] = []
    try:
        with backend.read("default") as tx:
            tx.conn.set_trace_callback(issued.append)
            tx.temporal_of(["m1", "m2", "m3"])
            tx.conn.set_trace_callback(None)
            (plan,) = [
                " ".join(str(row[3]) for row in tx.conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
                for sql in issued
                if sql.lstrip().upper().startswith("SELECT")
            ]
    finally:
        backend.close()
    assert "COVERING INDEX memories_temporal (tenant=? AND id=?)" in plan, plan


def test_entity_keys_fold_accents_and_a_clash_keeps_its_old_key(tmp_path: Path) -> None:
    path = tmp_path / "keys.db"
    SqliteBackend(str(path)).close()
    conn = sqlean.connect(str(path), isolation_level=None)
    rows = [("ent_a", "José", "josé"), ("ent_b", "Jose", "jose"), ("ent_c", "Zoë", "zoë")]
    for entity_id, name, norm in rows:  # keys as migration 1 wrote them (accents kept)
        conn.execute(
            "INSERT INTO entities (id, tenant, name, norm, created_at, updated_at) "
            "VALUES (?, 'default', ?, ?, 0, 0)",
            (entity_id, name, norm),
        )
    conn.execute("INSERT INTO entity_aliases VALUES ('default', 'zoë l', 'ent_c')")
    migrations._m012_entity_keys(conn)
    keys = dict(conn.execute("SELECT id, norm FROM entities").fetchall())
    assert keys == {"ent_a": "josé", "ent_b": "jose", "ent_c": "zoe"}  # the clash is left as is
    assert conn.execute("SELECT alias_norm FROM entity_aliases").fetchone()[0] == "zoe l"
    conn.close()


def test_migration_14_rekeys_transliterated_names(tmp_path: Path) -> None:
    path = tmp_path / "keys14.db"
    SqliteBackend(str(path)).close()
    conn = sqlean.connect(str(path), isolation_level=None)
    rows = [
        ("ent_a", "Søren Kjær", "søren kjær"),
        ("ent_b", "Kieran O'Donnell", "kieran o'donnell"),
    ]
    for entity_id, name, norm in rows:  # keys as migration 12 wrote them
        conn.execute(
            "INSERT INTO entities (id, tenant, name, norm, created_at, updated_at) "
            "VALUES (?, 'default', ?, ?, 0, 0)",
            (entity_id, name, norm),
        )
    (migrate,) = [m for version, _, m in migrations.MIGRATIONS if version == 14]
    migrate(conn)
    keys = dict(conn.execute("SELECT id, norm FROM entities").fetchall())
    assert keys == {"ent_a": "soren kjaer", "ent_b": "kieran odonnell"}
    conn.close()


def test_migration_11_turns_pinned_tags_into_the_pinned_column(tmp_path: Path) -> None:
    path = tmp_path / "v9.db"
    conn = sqlean.connect(str(path))
    conn.isolation_level = None
    conn.execute(
        "CREATE TABLE schema_migrations ("
        "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)"
    )
    before = [m for m in migrations.MIGRATIONS if m[0] < 11]
    for version, name, migrate in before:
        migrate(conn)
        conn.execute("INSERT INTO schema_migrations VALUES (?, ?, 0)", (version, name))
    for memory_id, tags in (("m1", '["pinned", "home"]'), ("m2", '["home"]')):
        conn.execute(
            "INSERT INTO memories (id, tenant, content, content_hash, tags, created_at, "
            "updated_at, last_used) VALUES (?, 'default', 'x', 'h', ?, 0, 0, 0)",
            (memory_id, tags),
        )
    assert 11 in migrations.apply(conn, 0)
    conn.close()
    backend = SqliteBackend(str(path))
    with backend.read("default") as tx:
        found = tx.get_memories(["m1", "m2"])
    backend.close()
    assert (found["m1"].pinned, found["m2"].pinned) == (True, False)
    assert {m.kind for m in found.values()} == {"note"}  # old memories keep the old half-life
    assert {m.stability for m in found.values()} == {1.0}
