"""A hard forget leaves none of the memory's words in any file of the store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mnemex
from mnemex import Settings
from mnemex.interfaces.cli import app as cli_app
from mnemex.retrieval import bm25
from tests.conftest import FakeClock

WORDS = ["zorblatt", "quuxington", "vexmoorfield", "plumbobium", "gralnikov", "snorkelbeast"]
SECRET = (
    "Zorblatt Quuxington moved to Vexmoorfield and keeps a snorkelbeast, says the plumbobium report"
)


def leftovers(root: Path) -> list[str]:
    """Every (file, word) where a purged word survives, in any case."""
    found = []
    for path in sorted(root.rglob("*")):
        if path.is_file():
            data = path.read_bytes().lower()
            found += [f"{path.name}: {word}" for word in WORDS if word.encode() in data]
    return found


def test_hard_forget_purges_every_copy(
    tmp_path: Path, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bm25, "SNAPSHOT_AT", 5)  # the lexical index is saved beside the file
    db = str(tmp_path / "store.db")
    with mnemex.open(db, settings=settings, clock=clock) as store:
        store.save_many([{"content": f"filler note {i} about the garden"} for i in range(8)])
        secret = store.save(
            SECRET,
            tags=["plumbobium"],
            entities=["Zorblatt Quuxington"],
            meta={"note": "snorkelbeast"},
            subject="Zorblatt Quuxington",
            relation="city",
            value="Vexmoorfield",
        ).id
        store.relate("Zorblatt Quuxington", "Gralnikov", "knows", source_memory=secret)
        assert store.search("Vexmoorfield snorkelbeast")[0].memory.id == secret
    assert leftovers(tmp_path), "the words should be on disk before the purge"
    with mnemex.open(db, settings=settings, clock=clock) as store:
        assert store.search("snorkelbeast")  # the saved lexical index is loaded
        store.forget(secret, hard=True)
        assert store.search("snorkelbeast Vexmoorfield", fill=False) == []  # no fill: no match
        assert store.facts("Zorblatt Quuxington", include_history=True) == []
        names = {e.name.casefold() for e in store.entities()}
        assert not names & {"zorblatt quuxington", "gralnikov"}
        exported = "\n".join(store.export()).lower()
        assert not [w for w in WORDS if w in exported]
        assert len(store.memories()) == 8
    assert leftovers(tmp_path) == []
    with mnemex.open(db, settings=settings, clock=clock) as store:
        assert [h.memory.content for h in store.search("garden", k=3)]


def test_forget_all_of_one_tenant_leaves_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MNEMEX_DATA_DIR", str(tmp_path / "data"))
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    for tenant in ("alice", "bob"):
        for i in range(3):
            result = runner.invoke(
                cli_app, ["--db", db, "--tenant", tenant, "save", f"{tenant} note {i}"]
            )
            assert result.exit_code == 0, result.output
    result = runner.invoke(
        cli_app, ["--db", db, "--tenant", "alice", "forget", "--all", "--hard", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["purged"] == 3
    with mnemex.open(db, tenant="bob") as bob, mnemex.open(db, tenant="alice") as alice:
        assert sorted(m.content for m in bob.memories()) == [f"bob note {i}" for i in range(3)]
        assert alice.memories(status=["active", "archived", "deleted", "promoted"]) == []
