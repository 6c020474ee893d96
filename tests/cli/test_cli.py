"""The CLI: a thin layer over MemoryStore, JSON on every read command, one error mapping."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from mnemex.interfaces.cli import app

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("MNEMEX_DATA_DIR", str(tmp_path / "data"))
    return str(tmp_path / "cli.db")


def run(db: str, *args: str) -> str:
    result = runner.invoke(app, ["--db", db, *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_save_search_show_forget_restore_touch(db: str) -> None:
    saved = json.loads(run(db, "save", "Kofi likes green tea", "-t", "drinks", "--json"))
    memory_id = saved["id"]
    hits = json.loads(run(db, "search", "green tea", "--json"))
    assert [h["memory"]["id"] for h in hits] == [memory_id]
    assert json.loads(run(db, "show", memory_id, "--json"))["tags"] == ["drinks"]
    assert json.loads(run(db, "touch", memory_id, "--boost", "--json"))["use_count"] == 1
    run(db, "forget", memory_id)
    assert json.loads(run(db, "search", "green tea", "--json")) == []
    assert json.loads(run(db, "restore", memory_id, "--json"))["status"] == "active"
    assert "Kofi likes green tea" in run(db, "search", "tea")


def test_lifecycle_commands(db: str) -> None:
    run(db, "save", "standup at nine thirty every weekday")
    run(db, "save", "standup at nine thirty every weekday!")
    assert json.loads(run(db, "gc", "--json"))["dry_run"] is True
    clusters = json.loads(run(db, "cluster", "--threshold", "0.6", "--json"))
    assert len(clusters) == 1
    preview = json.loads(run(db, "consolidate", clusters[0]["id"], "--threshold", "0.6", "--json"))
    assert preview["memory_id"] is None
    # The near-duplicate second save repeated the first: one use, enough to qualify.
    candidates = json.loads(run(db, "promote", "--json"))["candidates"]
    assert [(c["preview"], c["use_count"]) for c in candidates] == [
        ("standup at nine thirty every weekday", 1)
    ]


def test_export_import_round_trip(db: str, tmp_path: Path) -> None:
    run(db, "save", "exported memory", "--observed-at", "2025-01-02T03:04:05Z")
    out = tmp_path / "dump.jsonl"
    run(db, "export", str(out))
    other = str(tmp_path / "other.db")
    counts = json.loads(run(other, "import", str(out), "--json"))
    assert counts["skipped"] == 0 and counts["imported"] >= 1
    run(other, "export", str(tmp_path / "again.jsonl"))
    assert out.read_text() == (tmp_path / "again.jsonl").read_text()


def test_stats_json(db: str) -> None:
    run(db, "save", "one memory")
    stats = json.loads(run(db, "stats", "--json"))
    assert stats["memories"]["total"] == 1


def test_errors_are_mapped_once(db: str) -> None:
    result = runner.invoke(app, ["--db", db, "show", "mem_missing", "--json"])
    assert result.exit_code == 1
    assert json.loads(result.output)["error"]["code"] == "not_found"
    result = runner.invoke(app, ["--db", db, "save", "x", "--strength", "9"])
    assert result.exit_code == 2
    assert "strength" in result.output


def _commands(group: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """Every command under a group (Typer vendors its own click, so this duck-types)."""
    found = []
    for name, command in group.commands.items():
        found.append((prefix + name, command))
        if hasattr(command, "commands"):
            found += _commands(command, prefix + name + " ")
    return found


def test_every_command_has_help_text() -> None:
    commands = _commands(get_command(app))
    assert len(commands) >= 17
    missing = [name for name, command in commands if not (command.help or "").strip()]
    assert missing == []
    for name, command in commands:
        for param in command.params:
            if param.param_type_name == "option":
                assert (param.help or "").strip(), f"{name} {param.name} has no help"


def test_read_commands_offer_json() -> None:
    root: Any = get_command(app)
    reads = ["search", "show", "stats", "gc", "promote", "cluster", "consolidate", "touch"]
    for name in reads:
        assert any(p.name == "as_json" for p in root.commands[name].params), name
