"""What only the PostgreSQL backend has: its migration list, row-level security, the unique
partial index, ranking that agrees with the SQLite engine's, and search inside the database."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest

import mnemex
from mnemex import MemoryStore, Settings
from mnemex.retrieval.in_store import StoreLexicon, StoreVectors
from mnemex.store import migrations, pg_migrations
from mnemex.text import value_key
from tests.conftest import FakeClock
from tests.fakes import HASH_MODEL, HashEmbedder
from tests.pg import PgServer


@pytest.fixture
def pg_store(postgres_uri: str, settings: Settings, clock: FakeClock) -> Iterator[MemoryStore]:
    with mnemex.open(postgres_uri, settings=settings, clock=clock) as opened:
        yield opened


def test_migrations_have_the_sqlite_numbers_and_apply_once(postgres: PgServer) -> None:
    assert [(v, n) for v, n, _ in pg_migrations.MIGRATIONS] == [
        (v, n) for v, n, _ in migrations.MIGRATIONS
    ]
    uri = postgres.new_database(migrated=False)
    try:
        with psycopg.connect(uri, autocommit=True) as conn:
            assert pg_migrations.apply(conn, 1) == [v for v, _, _ in migrations.MIGRATIONS]
            assert pg_migrations.apply(conn, 2) == []
            versions = conn.execute("SELECT version FROM schema_migrations ORDER BY 1").fetchall()
        assert [row[0] for row in versions] == [v for v, _, _ in migrations.MIGRATIONS]
    finally:
        postgres.drop(uri)


def test_a_newer_schema_is_refused(postgres_uri: str, settings: Settings) -> None:
    with psycopg.connect(postgres_uri, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (999, 'future', 0)")
    with pytest.raises(mnemex.StorageError, match="newer"):
        mnemex.open(postgres_uri, settings=settings)


def test_row_level_security_confines_a_query_without_tenant_clause(
    pg_store: MemoryStore,
) -> None:
    pg_store.save("alpha's note about the boiler")
    other = pg_store.for_tenant("beta")
    other.save("beta's note about the boiler")
    other.save("beta's second note")
    with pg_store.backend.read("beta") as tx:
        conn = tx.conn  # type: ignore[attr-defined]
        assert conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 2
        unfiltered = conn.execute("SELECT count(*) FROM change_log").fetchone()[0]
        assert (
            unfiltered
            == tx.conn.execute(  # type: ignore[attr-defined]
                "SELECT count(*) FROM change_log WHERE tenant = 'beta'"
            ).fetchone()[0]
        )
        assert (
            conn.execute("SELECT count(*) FROM change_log WHERE tenant != 'beta'").fetchone()[0]
            == 0
        )
    with pg_store.backend.read(pg_store.tenant) as tx:
        conn = tx.conn  # type: ignore[attr-defined]
        assert conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 1
    refused = pytest.raises(psycopg.errors.InsufficientPrivilege, match="row-level security")
    with refused, pg_store.backend.write(pg_store.tenant) as tx:
        tx.conn.execute(  # type: ignore[attr-defined]
            "INSERT INTO events (id, tenant, kind, at) VALUES ('evt_x', 'beta', 'x', 0)"
        )
    with psycopg.connect(pg_store.backend.location, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM memories").fetchone()[0] == 0  # no tenant set


def test_one_active_value_per_key_is_enforced_by_the_database(pg_store: MemoryStore) -> None:
    pg_store.save("x", subject="Alice", relation="editor", value="vim")
    current = pg_store.facts("Alice", "editor")[0]
    second = dataclasses.replace(current, id="fct_second", object="emacs")
    refused = pytest.raises(psycopg.errors.UniqueViolation, match="facts_one_active")
    with refused, pg_store.backend.write(pg_store.tenant) as tx:
        tx.insert_fact(second)
    assert [fact.object for fact in pg_store.facts("Alice", "editor")] == ["vim"]


CORPUS = [
    "Alice prefers dark roast coffee in the morning",
    "Bob drinks green tea and sometimes coffee",
    "The deploy pipeline runs on Argo CD every night",
    "Coffee coffee coffee: the team's favourite drink",
    "Standup moved to nine thirty on Mondays",
    "The database migration to PostgreSQL is planned for March",
    "Alice's cat is called Biscuit",
    "Running shoes are in the hall cupboard",
    "The runner ran a marathon in Berlin",
    "Postgres vacuum settings were tuned last week",
]
QUERIES = ["coffee", "alice coffee", "running", "postgres migration", "the", "berlin marathon"]


def _contents(store: MemoryStore) -> dict[str, str]:
    with store.backend.read(store.tenant) as tx:
        return {memory.id: memory.content for memory in tx.iter_memories()}


def _ranks(store: MemoryStore, query: str) -> list[tuple[str, float]]:
    index = store.engine.lexical_index(store.tenant)
    with store.backend.read(store.tenant) as tx:
        index.sync(tx)
        ranked = index.rank(query.split(), store.settings.common_term_df)
        return ranked.top(10)


def test_bm25_in_sql_ranks_as_the_sqlite_engine(
    pg_store: MemoryStore, tmp_path: Path, clock: FakeClock
) -> None:
    lite = mnemex.open(
        ":memory:", settings=Settings.load(env={}, data_dir=tmp_path / "lite"), clock=clock
    )
    for text in CORPUS:
        for store in (lite, pg_store):
            store.save(text, tags=["corpus"], entities=["Alice"] if "Alice" in text else None)
    assert isinstance(pg_store.engine.lexical_index(pg_store.tenant), StoreLexicon)
    by_content = _contents(lite) | _contents(pg_store)
    for query in QUERIES:
        expected = [(by_content[i], score) for i, score in _ranks(lite, query)]
        found = [(by_content[i], score) for i, score in _ranks(pg_store, query)]
        assert [text for text, _ in found] == [text for text, _ in expected], query
        assert [s for _, s in found] == pytest.approx([s for _, s in expected], rel=1e-9)
    lite.close()


def test_vector_search_runs_in_the_database(postgres_uri: str, tmp_path: Path) -> None:
    embedder = HashEmbedder()
    settings = Settings.load(env={}, data_dir=tmp_path, embed_model=HASH_MODEL)
    with mnemex.open(postgres_uri, settings=settings) as store:
        ids = [store.save(text).id for text in CORPUS]
        index = store.engine.vector_index(store.tenant)
        assert isinstance(index, StoreVectors)
        assert len(index) == 0  # nothing held in the process
        hits = store.search(CORPUS[5], k=3)
        assert hits[0].memory.id == ids[5]
        assert "vector" in store.search(CORPUS[5], k=3, explain=True)[0].channels
        with store.backend.read(store.tenant) as tx:
            names = tx.conn.execute(  # type: ignore[attr-defined]
                "SELECT indexname FROM pg_indexes WHERE tablename = 'embeddings'"
            ).fetchall()
        assert (f"embeddings_hnsw_{embedder.dim}",) in names


def test_backfilling_migrations_see_every_tenant(
    postgres: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    uri = postgres.new_database(migrated=False)
    try:
        with psycopg.connect(uri, autocommit=True) as conn:
            monkeypatch.setattr(pg_migrations, "MIGRATIONS", pg_migrations.MIGRATIONS[:2])
            assert pg_migrations.apply(conn, 1) == [1, 2]
            monkeypatch.undo()
            for tenant in ("a", "b"):
                with conn.transaction():
                    conn.execute("SELECT set_config('mnemex.tenant', %s, true)", (tenant,))
                    conn.execute(
                        "INSERT INTO entities (id, tenant, name, norm, created_at, updated_at) "
                        "VALUES (%s, %s, 'Alice', 'alice', 0, 0)",
                        (f"ent_{tenant}", tenant),
                    )
                    conn.execute(
                        "INSERT INTO facts (id, tenant, subject_id, subject, relation, object, "
                        "statement, observed_at, valid_from, recorded_at) VALUES "
                        "(%s, %s, %s, 'Alice', 'editor', 'Neo Vim', 'x', 0, 0, 0)",
                        (f"fct_{tenant}", tenant, f"ent_{tenant}"),
                    )
                    for name, tags in (("pin", '["pinned", "home"]'), ("plain", '["home"]')):
                        conn.execute(
                            "INSERT INTO memories (id, tenant, content, content_hash, tags, "
                            "created_at, updated_at, last_used) VALUES (%s, %s, 'x', 'h', %s, "
                            "0, 0, 0)",
                            (f"mem_{tenant}_{name}", tenant, tags),
                        )
            later = [version for version, _, _ in pg_migrations.MIGRATIONS[2:]]
            assert later == [3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14]
            assert pg_migrations.apply(conn, 2) == later
            for tenant in ("a", "b"):
                with conn.transaction():
                    conn.execute("SELECT set_config('mnemex.tenant', %s, true)", (tenant,))
                    keys = conn.execute("SELECT object_key FROM facts").fetchall()
                    counts = conn.execute(
                        "SELECT object_key, status, relation, facts FROM fact_value_counts"
                    ).fetchall()
                    pins = conn.execute(
                        "SELECT id, pinned, kind, stability, repeat_count FROM memories ORDER BY id"
                    ).fetchall()
                assert pins == [
                    (f"mem_{tenant}_pin", 1, "note", 1.0, 0),
                    (f"mem_{tenant}_plain", 0, "note", 1.0, 0),
                ]
                assert keys == [(value_key("Neo Vim"),)]
                assert counts == [(value_key("Neo Vim"), "active", "editor", 1)]
    finally:
        postgres.drop(uri)


def test_mnemex_db_selects_postgres_and_hides_the_password(
    postgres_uri: str, tmp_path: Path
) -> None:
    settings = Settings.load(env={"MNEMEX_DB": postgres_uri}, data_dir=tmp_path)
    with mnemex.open(settings=settings) as store:
        store.save("kept in PostgreSQL")
        info = store.stats()["store"]
    assert info["backend"] == "postgresql"
    assert info["schema_version"] == migrations.MIGRATIONS[-1][0]
    assert info["location"].startswith("postgresql://")  # stats name no user, password or query
    assert "mnemex_test_app" not in info["location"] and "?" not in info["location"]
    assert info["location"].endswith(urlsplit(postgres_uri).path)
    with psycopg.connect(postgres_uri) as conn:
        conn.execute("SELECT set_config('mnemex.tenant', 'default', false)")
        assert conn.execute("SELECT content FROM memories").fetchall() == [("kept in PostgreSQL",)]
