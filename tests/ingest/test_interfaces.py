"""Citations and ingest through every way in: the CLI, REST, MCP and recall blocks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mcp import Client
from mnemex import MemoryStore
from mnemex.interfaces.cli import app as cli
from mnemex.interfaces.http import create_app
from mnemex.interfaces.mcp.server import build_server
from tests.clients import ok, rest

runner = CliRunner()
NOTE = "# Runbook\n\n## Drills\n\nThe restore drill runs on the first Thursday of each quarter.\n"


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "runbook.md").write_text(NOTE)
    (folder / "dump.txt").write_bytes(b"\x00\x01binary")
    return folder


def test_cli_ingest_summary_json_and_errors(
    notes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MNEMEX_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MNEMEX_EMBED_MODEL", "none")
    db = str(tmp_path / "cli.db")
    first = runner.invoke(cli, ["--db", db, "ingest", str(notes)])
    assert first.exit_code == 0, first.output
    assert "2 files: 1 added" in first.output and "1 skipped" in first.output
    unwrapped = "".join(first.output.split())  # a long temporary path wraps at 80 columns
    assert "dump.txt(binary)" in unwrapped
    again = json.loads(runner.invoke(cli, ["--db", db, "ingest", str(notes), "--json"]).output)
    assert (again["unchanged"], again["added"], again["problems"][0]["code"]) == (1, 0, "binary")
    hits = json.loads(runner.invoke(cli, ["--db", db, "search", "restore drill", "--json"]).output)
    assert hits[0]["citation"]["ref"] == f"{notes / 'runbook.md'}:5"
    assert hits[0]["citation"]["heading"] == "Runbook > Drills"
    table = runner.invoke(cli, ["--db", db, "search", "restore drill"]).output
    assert "runbook.md:5" in "".join(table.replace("│", "").split())  # folded, never cut
    shown = runner.invoke(cli, ["--db", db, "show", hits[0]["memory"]["id"]]).output
    assert "runbook.md:5RunbookDrills" in "".join(shown.replace(">", "").split())
    bad = runner.invoke(cli, ["--db", db, "ingest", str(tmp_path / "nowhere"), "--json"])
    assert bad.exit_code == 2 and json.loads(bad.output)["error"]["details"]["field"] == "paths"
    small = runner.invoke(cli, ["--db", db, "ingest", str(notes), "--chunk-chars", "5"])
    assert small.exit_code == 2 and "chunk_chars" in small.output


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_rest_mcp_and_recall_carry_the_citation(mem_store: MemoryStore, notes: Path) -> None:
    mem_store.ingest(notes)
    ref = f"{notes / 'runbook.md'}:5"
    async with rest(create_app(mem_store, mcp=False)) as client:
        body = (await client.post("/v1/search", json={"query": "restore drill"})).json()
        recalled = (await client.post("/v1/recall", json={"prompt": "restore drill?"})).json()
    assert body["hits"][0]["citation"] == {
        "ref": ref,
        "path": str(notes / "runbook.md"),
        "start": 5,
        "end": 5,
        "unit": "line",
        "heading": "Runbook > Drills",
    }
    assert f"from {ref})" in recalled["block"]
    server: Any = build_server(mem_store)
    async with Client(server) as mcp:
        found = await ok(mcp, "search_memory", query="restore drill")
    assert found["items"][0]["cite"] == ref and found["items"][0]["heading"] == "Runbook > Drills"
