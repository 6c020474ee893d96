"""Careless commands lose nothing: read commands, export, import, stats, vault folders."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import mnemex
from mnemex import MemoryStore, Settings
from mnemex.interfaces.cli import app as cli_app
from tests.conftest import FakeClock

runner = CliRunner()
_NONE = {"rejected": 0, "problems": []}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MNEMEX_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MNEMEX_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def cli(*args: str) -> Any:
    return runner.invoke(cli_app, list(args))


def test_export_from_a_typo_store_keeps_the_backup(env: Path) -> None:
    assert cli("--db", "real.db", "save", "something worth keeping").exit_code == 0
    assert cli("--db", "real.db", "export", "backup.jsonl").exit_code == 0
    before = (env / "backup.jsonl").read_bytes()
    result = cli("--db", "typo.db", "export", "backup.jsonl")
    assert result.exit_code != 0 and "not_found" in result.output
    assert not (env / "typo.db").exists()
    assert (env / "backup.jsonl").read_bytes() == before
    for command in (["stats"], ["list"], ["search", "x"], ["facts"], ["entities"], ["gc"]):
        assert cli("--db", "typo2.db", *command).exit_code != 0, command
    assert not (env / "typo2.db").exists()


def test_a_failing_export_leaves_the_old_file(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli("--db", "real.db", "save", "first").exit_code == 0
    assert cli("--db", "real.db", "export", "backup.jsonl").exit_code == 0
    before = (env / "backup.jsonl").read_bytes()

    def broken(self: MemoryStore) -> Any:
        yield '{"format": "mnemex-export", "version": 1}'
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(MemoryStore, "export", broken)
    result = cli("--db", "real.db", "export", "backup.jsonl")
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert (env / "backup.jsonl").read_bytes() == before
    assert sorted(p.name for p in env.iterdir() if "backup" in p.name) == ["backup.jsonl"]


def _lines(store: MemoryStore) -> list[str]:
    return list(store.export())


def test_import_unifies_a_same_named_entity(
    tmp_path: Path, settings: Settings, clock: FakeClock
) -> None:
    with mnemex.open(str(tmp_path / "a.db"), settings=settings, clock=clock) as a:
        a.save("Alice leads the kiln project", entities=["Alice"])
        lines = _lines(a)
    with mnemex.open(str(tmp_path / "b.db"), settings=settings, clock=clock) as b:
        b.save("Alice likes tea", entities=["Alice"])
        counts = b.import_lines(lines)
        assert counts["rejected"] == 0, counts
        assert [e.name for e in b.entities()] == ["Alice"]
        assert len(b.memories(entity="Alice")) == 2


def test_import_into_another_tenant_copies_everything(store: MemoryStore) -> None:
    alice = store.for_tenant("alice")  # every backend: ids are store-wide, rows are not
    alice.save("Alice uses Neovim", subject="Alice", relation="editor", value="Neovim")
    alice.save("the kiln runs hot", entities=["Kiln"])
    lines = _lines(alice)
    bob = alice.for_tenant("bob")
    counts = bob.import_lines(lines)
    assert counts["imported"] >= 2 and counts["rejected"] == 0, counts
    assert sorted(m.content for m in bob.memories()) == sorted(m.content for m in alice.memories())
    assert [f.object for f in bob.facts("Alice", "editor")] == ["Neovim"]
    assert {m.id for m in bob.memories()}.isdisjoint(m.id for m in alice.memories())
    assert len(alice.memories()) == 2
    again = bob.import_lines(lines)
    assert again["imported"] == 0 and again["rejected"] == 0, again
    assert alice.import_lines(lines) == {"imported": 0, "skipped": len(lines) - 1, **_NONE}


def test_import_rejects_bad_rows_apart_from_duplicates(
    tmp_path: Path, settings: Settings, clock: FakeClock
) -> None:
    with mnemex.open(str(tmp_path / "i.db"), settings=settings, clock=clock) as store:
        store.save("kept")
        lines = _lines(store)
        good = json.loads(lines[1])
        long = {**good["row"], "id": "mem_toolong", "content": "x" * 60_000}
        nul = {**good["row"], "id": "mem_nul", "content": "bad\u0000text"}
        broken = {**good["row"], "id": "mem_status", "status": "exploded"}
        extra = [json.dumps({"table": "memories", "row": row}) for row in (long, nul, broken)]
        counts = store.import_lines([*lines, *extra])
        assert counts["imported"] == 0 and counts["skipped"] == len(lines) - 1
        assert counts["rejected"] == 3, counts
        reasons = " ".join(p["reason"] for p in counts["problems"])
        assert ("content" in reasons and "limit" in reasons.lower()) or "50000" in reasons
        assert [m.content for m in store.memories()] == ["kept"]


def test_stats_hide_the_absolute_path(tmp_path: Path, settings: Settings) -> None:
    with mnemex.open(str(tmp_path / "secret-folder" / "s.db"), settings=settings) as store:
        shown = json.dumps(store.stats())
        assert "secret-folder" not in shown and str(tmp_path) not in shown
        assert store.stats()["store"]["location"] == "s.db"


def test_each_tenant_has_its_own_vault_folder(tmp_path: Path, settings: Settings) -> None:
    with mnemex.open(str(tmp_path / "v.db"), settings=settings, tenant="alice") as alice:
        bob = alice.for_tenant("bob")
        a = alice.save("Alice's lasting note").id
        b = bob.save("Bob's lasting note").id
        note_a = Path(alice.promote(a, dry_run=False).notes[a])
        note_b = Path(bob.promote(b, dry_run=False).notes[b])
        assert note_a.parent != note_b.parent
        assert note_a.parent.name != note_b.parent.name
        assert settings.vault_path in note_a.parents and settings.vault_path in note_b.parents
