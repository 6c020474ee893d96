"""`mnemex migrate`: a whole store to PostgreSQL and back, verified, nothing lost."""

from __future__ import annotations

import json
from pathlib import Path

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
