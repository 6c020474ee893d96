"""The CLI covers the API: listing, editing, pinning, the ledger and its review queue, recall,
the graph; ids by unique prefix; full ids and dates at any width; --ids for scripts; read
commands on a missing store say so and create nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from mnemex.interfaces.cli import app

runner = CliRunner()
ID = re.compile(r"\b(?:mem|fct|rev|tok|ent)_[0-9a-z]{26}\b")


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("MNEMEX_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MNEMEX_EMBED_MODEL", "none")
    return str(tmp_path / "cli.db")


def run(db: str, *args: str, width: int = 200) -> str:
    result = runner.invoke(app, ["--db", db, *args], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    return result.output


def test_read_commands_on_a_missing_store_say_so_and_create_nothing(db: str) -> None:
    reads = [
        ["list"], ["search", "x"], ["show", "mem_x"], ["facts"], ["profile"], ["reviews"],
        ["timeline", "Alice"], ["entities"], ["graph"], ["activity"], ["recall", "x"],
        ["keys"], ["token", "list"],
    ]  # fmt: skip
    for args in reads:
        result = runner.invoke(app, ["--db", db, *args])
        assert result.exit_code == 1, args
        assert "no store at" in result.output and db in result.output, args
    assert not Path(db).exists()
    run(db, "save", "now there is one")
    assert Path(db).exists()
    assert "now there is one" in run(db, "list")


def test_ids_by_unique_prefix_and_ambiguity_named(db: str) -> None:
    first = json.loads(run(db, "save", "Kofi likes green tea", "--json"))["id"]
    second = json.loads(run(db, "save", "Ama likes black coffee", "--json"))["id"]
    common = next(i for i in range(len(first)) if first[i] != second[i])
    assert "Kofi" in run(db, "show", first[: common + 1])
    result = runner.invoke(app, ["--db", db, "show", first[:common]])
    assert result.exit_code == 2
    assert first in result.output and second in result.output
    assert runner.invoke(app, ["--db", db, "show", "mem_zzzz"]).exit_code == 1


def test_full_ids_and_dates_on_a_narrow_terminal(db: str) -> None:
    saved = json.loads(run(db, "save", "A rather long memory " * 8, "-t", "long", "--json"))
    out = run(db, "list", width=40)
    assert saved["id"] in out
    assert re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", out)
    assert saved["id"] in run(db, "search", "rather long memory", width=40)
    token = json.loads(run(db, "token", "create", "--tenant", "t", "--json"))["token"]
    listed = run(db, "token", "list", width=40)
    assert token["id"] in listed and token["created_at"][:19] in listed


def test_list_filters_ids_mode_edit_and_pin(db: str) -> None:
    ids = [
        json.loads(run(db, "save", text, "-t", tag, "--strength", s, "--json"))["id"]
        for text, tag, s in [("alpha note", "a", "0.5"), ("beta note", "b", "1.5")]
    ]
    assert run(db, "list", "--ids").split() == ids[::-1]
    assert run(db, "list", "--tag", "b", "--ids").split() == [ids[1]]
    assert run(db, "list", "--min-strength", "1", "--ids").split() == [ids[1]]
    assert run(db, "list", "--order", "created", "--ids").split() == ids[::-1]
    edited = json.loads(run(db, "edit", ids[0][:20], "--content", "alpha, edited", "--json"))
    assert edited["content"] == "alpha, edited"
    assert "pinned" in json.loads(run(db, "pin", ids[0], "--json"))["tags"]
    assert run(db, "list", "--tag", "pinned", "--ids").split() == [ids[0]]
    assert "pinned" not in json.loads(run(db, "unpin", ids[0], "--json"))["tags"]
    result = runner.invoke(app, ["--db", db, "edit", ids[0]])
    assert result.exit_code == 2 and "at least one option" in result.output


def test_the_ledger_and_its_review_queue(db: str) -> None:
    run(
        db, "save", "Alice uses Vim", "--subject", "Alice", "--relation", "editor", "--value", "Vim"
    )
    run(
        db,
        "save",
        "Alice uses Helix",
        "--subject",
        "Alice",
        "--relation",
        "editor",
        "--value",
        "Helix",
    )
    facts = run(db, "facts", "Alice", "--history")
    assert "Alice / editor = Helix  [active]" in facts and "Vim  [superseded]" in facts
    assert len(run(db, "timeline", "Alice", "--ids").split()) == 2
    assert "Helix" in run(db, "profile") and "Helix" in run(db, "keys", "Alice")
    run(db, "save", "Alice's code editor is Zed", "--subject", "Alice", "--relation",
        "code editor", "--value", "Zed")  # fmt: skip
    review = run(db, "reviews", "--ids").split()
    assert len(review) == 1 and ID.fullmatch(review[0]) and review[0].startswith("rev_")
    settled = json.loads(run(db, "review", "approve", review[0][:12], "--json"))
    assert settled["status"] == "approved"
    assert "Alice / editor = Zed" in run(db, "facts", "Alice")
    assert run(db, "reviews").strip() == "no open reviews"


def test_recall_analyze_graph_entities_relate_and_activity(db: str) -> None:
    saved = json.loads(run(db, "save", "Mateo leads Atlas", "-e", "Mateo", "-e", "Atlas", "--json"))
    assert "<recalled-memory>" in run(db, "recall", "who leads Atlas?")
    assert run(db, "recall", "who leads Atlas?", "--ids").split() == [saved["id"]]
    assert (
        json.loads(run(db, "analyze", "Remember that I'm vegetarian", "--json"))["action"]
        == "MUST_SAVE"
    )
    shown = run(db, "analyze", "Lunch with Priya at 2pm about the Orion launch")
    assert "entities: Priya, Orion" in shown and "values: 2pm" in shown  # a time is no entity
    run(db, "relate", "Mateo", "mentors", "Ines")
    whole = json.loads(run(db, "graph", "--json"))
    assert {"Mateo", "Atlas", "Ines"} <= {n["label"] for n in whole["nodes"]}
    assert "mentors" in {e["type"] for e in whole["edges"]}
    assert "Mateo -mentors-> Ines" in run(db, "graph", "Mateo", "--depth", "1")
    assert json.loads(run(db, "entity", "mateo", "--json"))["name"] == "Mateo"
    assert len(run(db, "entities", "--ids").split()) >= 3
    kinds = [e["kind"] for e in json.loads(run(db, "activity", "--json"))]
    assert "save" in kinds and "relate" in kinds


def test_bulk_commands_take_files(db: str, tmp_path: Path) -> None:
    items = tmp_path / "items.jsonl"
    items.write_text('{"content": "one"}\n{"content": "two", "tags": ["t"]}\n', encoding="utf-8")
    assert len(run(db, "save-many", str(items), "--ids").split()) == 2
    body = tmp_path / "entities.json"
    body.write_text(json.dumps({"entities": [{"name": "Atlas", "category": "project"}]}))
    assert "1 entities (1 new)" in run(db, "upsert-entities", str(body))
    ids = run(db, "list", "--ids").split()
    observed = json.loads(run(db, "observe", *[i[:16] for i in ids], "--json"))
    assert [m["use_count"] for m in observed] == [1, 1]


def test_every_list_command_offers_ids_and_json() -> None:
    root: Any = get_command(app)
    for name in ("list", "search", "facts", "keys", "profile", "timeline", "reviews",
                 "entities", "activity", "recall", "save-many"):  # fmt: skip
        params = {p.name for p in root.commands[name].params}
        assert {"as_json", "as_ids"} <= params, name
