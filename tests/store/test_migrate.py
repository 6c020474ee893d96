"""`mnemex migrate`: a whole store to PostgreSQL and back, verified, nothing lost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import mnemex
from mnemex import InvalidInputError, Settings
from mnemex.interfaces.cli import app
from mnemex.service import migrate_store
from tests.fakes import HASH_MODEL
from tests.pg import PgServer


def _fill(path: Path, settings: Settings) -> dict[str, str]:
    with mnemex.open(str(path), settings=settings) as store:
        store.save("Alice prefers dark roast coffee", tags=["coffee"], entities=["Alice"])
        store.save("x", subject="Alice", relation="editor", value="vim")
        store.save("x", subject="Alice", relation="editor", value="emacs")
        kept = store.save("The boiler is serviced every March", meta={"b": 1, "a": [1, 2]})
        store.touch(kept.id)
        store.observe([kept.id])
        gone = store.save("An old note")
        store.forget(gone.id)
        store.tokens.create("default", "ci")
        other = store.for_tenant("team")
        other.save("The team's deploy runs on Argo CD", entities=["Argo CD"])
        return {
            tenant: "\n".join(store.for_tenant(tenant).export()) for tenant in ("default", "team")
        }


def _exports(target: str, settings: Settings) -> dict[str, str]:
    with mnemex.open(target, settings=settings) as store:
        return {
            tenant: "\n".join(store.for_tenant(tenant).export()) for tenant in ("default", "team")
        }


def test_sqlite_to_postgres_and_back_keeps_every_row(tmp_path: Path, postgres: PgServer) -> None:
    settings = Settings.load(env={}, data_dir=tmp_path / "data", embed_model=HASH_MODEL)
    before = _fill(tmp_path / "a.db", settings)
    uri = postgres.new_database()
    try:
        there = migrate_store(f"sqlite://{tmp_path / 'a.db'}", uri, settings=settings)
        assert set(there["tenants"]) == {"default", "team"}
        assert there["tokens"] == 1
        assert there["embeddings"] == 5  # the live memories (the forgotten note has none)
        assert _exports(uri, settings) == before
        back = migrate_store(uri, str(tmp_path / "b.db"), settings=settings)
        assert _exports(str(tmp_path / "b.db"), settings) == before
        assert {t: m["sha256"] for t, m in back["tenants"].items()} == {
            t: m["sha256"] for t, m in there["tenants"].items()
        }
        with mnemex.open(uri, settings=settings) as store:
            assert [t.name for t in store.tokens.list()] == ["ci"]
            hits = store.search("boiler serviced", k=1, explain=True)
            assert "vector" in hits[0].channels
            # The HNSW index was built once the vectors were in (a bulk load defers it).
            with store.backend.read(store.tenant) as tx:
                indexes = tx.conn.execute(
                    "SELECT indexname FROM pg_indexes WHERE tablename = 'embeddings'"
                ).fetchall()
            assert any(name.startswith("embeddings_hnsw_") for (name,) in indexes)
        with pytest.raises(InvalidInputError, match="not empty"):
            migrate_store(str(tmp_path / "a.db"), uri, settings=settings)
    finally:
        postgres.drop(uri)


def test_cli_migrate_reports_counts_and_checksums(
    tmp_path: Path, postgres: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MNEMEX_EMBED_MODEL", "none")
    monkeypatch.setenv("MNEMEX_DATA_DIR", str(tmp_path / "data"))
    settings = Settings.load(env={}, data_dir=tmp_path / "data", embed_model="none")
    before = _fill(tmp_path / "a.db", settings)
    uri = postgres.new_database()
    try:
        result = CliRunner().invoke(
            app, ["migrate", "--from", f"sqlite://{tmp_path / 'a.db'}", "--to", uri, "--json"]
        )
        assert result.exit_code == 0, result.output
        report = json.loads(result.output)
        assert report["verified"] is True
        assert report["tenants"]["default"]["memories"] == 5
        assert "***" in report["to"] or "@" not in report["to"]
        assert _exports(uri, settings) == before
        again = CliRunner().invoke(
            app, ["migrate", "--from", str(tmp_path / "a.db"), "--to", uri, "--json"]
        )
        assert again.exit_code != 0
        assert "not empty" in again.output
    finally:
        postgres.drop(uri)


def _lexicon(uri: str, settings: Settings, tenant: str) -> tuple[list[Any], list[Any]]:
    with mnemex.open(uri, settings=settings) as store, store.backend.read(tenant) as tx:
        docs = tx.conn.execute("SELECT docs, tokens FROM lexicon_docs").fetchall()
        terms = tx.conn.execute("SELECT term, df FROM lexicon_terms WHERE df > 0 ORDER BY term")
        return docs, terms.fetchall()


def test_a_bulk_load_counts_the_bm25_statistics_as_saving_row_by_row_does(
    tmp_path: Path, postgres: PgServer
) -> None:
    settings = Settings.load(env={}, data_dir=tmp_path / "data", embed_model="none")
    saved, copied = postgres.new_database(), postgres.new_database()
    try:
        with mnemex.open(saved, settings=settings) as store:
            for text in ("Alice brews dark roast", "Bob brews green tea", "The roast is dark"):
                store.save(text, tags=["drinks"])
            edited = store.save("A note to edit")
            store.update(edited.id, content="A note edited once")
            store.forget(store.save("A note to forget").id)
            store.for_tenant("team").save("The team brews cold brew")
        migrate_store(saved, str(tmp_path / "a.db"), settings=settings)
        migrate_store(str(tmp_path / "a.db"), copied, settings=settings)  # the bulk load
        for tenant in ("default", "team"):
            expected = _lexicon(saved, settings, tenant)
            assert expected[1]  # terms were counted
            assert _lexicon(copied, settings, tenant) == expected
        ranked = []
        for uri in (saved, copied):
            with mnemex.open(uri, settings=settings) as store:
                ranked.append(
                    [(h.memory.id, round(h.score, 6)) for h in store.search("dark roast")]
                )
        assert ranked[0] == ranked[1] and len(ranked[0]) >= 2
    finally:
        postgres.drop(saved)
        postgres.drop(copied)
