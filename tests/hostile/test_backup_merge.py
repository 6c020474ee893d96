"""backup, restore, verify and merge: online copies, a verdict with an exit status, a team merge."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import mnemex
from mnemex import Settings
from mnemex.interfaces.cli import app as cli_app
from tests.conftest import FakeClock

runner = CliRunner()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MNEMEX_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MNEMEX_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def cli(*args: str) -> Any:
    return runner.invoke(cli_app, list(args))


def test_backup_restore_and_verify(env: Path) -> None:
    for text in ("Priya owns billing", "the kiln runs hot", "standup at 10:30"):
        assert cli("--db", "live.db", "save", text).exit_code == 0
    with mnemex.open("live.db") as server:  # the store stays open (a running server) meanwhile
        result = cli("--db", "live.db", "backup", "copy.db")
        assert result.exit_code == 0, result.output
        server.save("saved after the backup")
    verdict = cli("--db", "copy.db", "verify", "--json")
    assert verdict.exit_code == 0, verdict.output
    report = json.loads(verdict.output)
    assert report["ok"] and {c["name"] for c in report["checks"]} >= {
        "integrity", "fts", "one_active_per_key", "embeddings", "orphans"
    }  # fmt: skip
    with mnemex.open("copy.db") as copy:
        assert len(copy.memories()) == 3
        with copy.backend.read(copy.tenant) as tx:
            assert tx.conn.execute("SELECT count(*) FROM embeddings").fetchone()[0] == 3  # type: ignore[attr-defined]
    assert cli("--db", "restored.db", "restore", "copy.db").exit_code == 0
    with mnemex.open("restored.db") as restored:
        assert sorted(m.content for m in restored.memories()) == sorted(
            ["Priya owns billing", "the kiln runs hot", "standup at 10:30"]
        )
    assert cli("--db", "live.db", "backup", "nodir/x.db").exit_code != 0


def test_verify_fails_on_a_damaged_store(env: Path) -> None:
    assert cli("--db", "d.db", "save", "the kiln runs hot").exit_code == 0
    conn = sqlite3.connect("d.db")
    conn.execute("UPDATE embeddings SET content_hash = 'x'")
    conn.execute(
        "INSERT INTO memory_entities (tenant, memory_id, entity_id) "
        "VALUES ('default', 'mem_gone', 'ent_gone')"
    )
    conn.commit()
    conn.close()
    verdict = cli("--db", "d.db", "verify", "--json")
    assert verdict.exit_code == 1, verdict.output
    failed = {c["name"] for c in json.loads(verdict.output)["checks"] if not c["ok"]}
    assert failed == {"embeddings", "orphans"}


def test_merge_two_stores(tmp_path: Path, settings: Settings, clock: FakeClock) -> None:
    a, b, out = (str(tmp_path / name) for name in ("a.db", "b.db", "c.db"))
    start = clock.now
    with mnemex.open(a, settings=settings, clock=clock) as one:
        one.save("Alice uses Vim", subject="Alice", relation="editor", value="Vim")
        shared = one.save("standup is at 10:30 every day", entities=["Alice"]).id
        for _ in range(3):
            one.touch(shared)
        one.save("only in A: the kiln runs hot")
    clock.advance(days=5)
    with mnemex.open(b, settings=settings, clock=clock) as two:
        two.save("Alice uses Neovim now", subject="Alice", relation="editor", value="Neovim")
        again = two.save("standup is at 10:30 every day", entities=["Alice"]).id
        for _ in range(7):
            two.touch(again)
        two.save("only in B: Priya owns billing")
    result = runner.invoke(cli_app, ["merge", a, b, "-o", out, "--json"])
    assert result.exit_code == 0, result.output
    with mnemex.open(out, settings=settings, clock=clock) as merged:
        contents = sorted(m.content for m in merged.memories())
        assert contents == sorted(
            [
                "Alice uses Vim",
                "Alice uses Neovim now",
                "standup is at 10:30 every day",
                "only in A: the kiln runs hot",
                "only in B: Priya owns billing",
            ]
        )
        [standup] = [m for m in merged.memories() if m.content.startswith("standup")]
        assert standup.use_count == 7
        [current] = merged.facts("Alice", "editor")
        assert current.object == "Neovim"
        history = merged.facts("Alice", "editor", include_history=True)
        assert [(f.object, f.status) for f in history] == [
            ("Vim", "superseded"),
            ("Neovim", "active"),
        ]
        assert [e.name for e in merged.entities() if e.name.casefold() == "alice"] == ["Alice"]
        assert start < current.valid_from <= start + timedelta(days=6)
    assert cli("--db", out, "verify").exit_code == 0
    assert runner.invoke(cli_app, ["merge", a, b, "-o", out]).exit_code != 0  # never overwrites
