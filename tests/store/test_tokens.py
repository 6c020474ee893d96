"""Bearer tokens: hashed at rest, bound to a tenant, revocable; the `mnemex token` commands."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mnemex
from mnemex import MemoryStore, NotFoundError, UnauthorizedError
from mnemex.interfaces.cli import app
from mnemex.store import api_tokens as tokens_mod

runner = CliRunner()


def test_a_token_is_stored_only_as_a_hash(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with mnemex.open(db) as store:
        token, secret = store.tokens.create("alpha", "laptop")
        assert secret.startswith("mnx_") and len(secret) > 40
        assert store.tokens.verify(secret).tenant == "alpha"
    raw = db.read_bytes()
    assert secret.encode() not in raw
    assert hashlib.sha256(secret.encode()).hexdigest().encode() in raw
    assert token.name == "laptop"


def test_unknown_and_revoked_tokens_are_refused(mem_store: MemoryStore) -> None:
    token, secret = mem_store.tokens.create("alpha")
    with pytest.raises(UnauthorizedError):
        mem_store.tokens.verify("mnx_not-a-token")
    assert mem_store.tokens.verify(secret).id == token.id
    revoked = mem_store.tokens.revoke(token.id)
    assert revoked.revoked_at is not None
    with pytest.raises(UnauthorizedError):
        mem_store.tokens.verify(secret)  # the cached check is dropped on revoke
    with pytest.raises(NotFoundError):
        mem_store.tokens.revoke("tok_missing")
    assert not mem_store.tokens.active()


def test_a_revocation_by_another_process_lands_within_the_cache_ttl(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "t.db"
    with mnemex.open(db) as server, mnemex.open(db) as admin:
        token, secret = admin.tokens.create("alpha")
        server.tokens.verify(secret)
        admin.tokens.revoke(token.id)
        server.tokens.verify(secret)  # still cached
        later = time.monotonic() + tokens_mod.CHECK_TTL_S + 1
        monkeypatch.setattr(time, "monotonic", lambda: later)  # the module tokens_mod reads
        with pytest.raises(UnauthorizedError):
            server.tokens.verify(secret)


def test_verify_records_last_use(mem_store: MemoryStore) -> None:
    token, secret = mem_store.tokens.create("alpha")
    assert mem_store.tokens.list()[0].last_used is None
    mem_store.tokens.verify(secret)
    (listed,) = mem_store.tokens.list("alpha")
    assert listed.id == token.id and listed.last_used is not None
    assert mem_store.tokens.list("beta") == []


def test_token_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    created = runner.invoke(
        app, ["--db", db, "token", "create", "--tenant", "team", "--name", "ci"]
    )
    assert created.exit_code == 0, created.output
    secret = created.output.split()[-1]
    with mnemex.open(db) as store:
        assert store.tokens.verify(secret).tenant == "team"
    listed = runner.invoke(app, ["--db", db, "token", "list", "--json"])
    (row,) = json.loads(listed.output)
    assert row["tenant"] == "team" and row["name"] == "ci" and secret not in listed.output
    revoked = runner.invoke(app, ["--db", db, "token", "revoke", row["id"], "--json"])
    assert json.loads(revoked.output)["revoked_at"] is not None
    missing = runner.invoke(app, ["--db", db, "token", "revoke", "tok_nope"])
    assert missing.exit_code == 1 and "not_found" in missing.output
