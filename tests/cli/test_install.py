"""`mnemex install claude-code|claude-desktop`: absolute paths, idempotent, reversible."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mnemex.interfaces.cli import app

runner = CliRunner()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def invoke(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_project_install_is_idempotent_and_keeps_other_settings(tmp_path: Path, home: Path) -> None:
    project = tmp_path / "acme"
    settings = project / ".claude" / "settings.local.json"
    settings.parent.mkdir(parents=True)
    other = {"type": "command", "command": "/usr/bin/notify-send done"}
    settings.write_text(json.dumps({"model": "opus", "hooks": {"Stop": [{"hooks": [other]}]}}))
    db = str(tmp_path / "team.db")
    invoke("--db", db, "install", "claude-code", "--project", str(project))
    first = settings.read_text()
    invoke("--db", db, "install", "claude-code", "--project", str(project))
    assert settings.read_text() == first
    written = read(settings)
    assert written["model"] == "opus"
    prompt_hook = written["hooks"]["UserPromptSubmit"][0]["hooks"][0]
    argv = shlex.split(prompt_hook["command"])
    assert Path(argv[0]).is_absolute() and argv[0].endswith("mnemex")
    assert argv[1:] == ["--db", db, "hook", "user-prompt-submit"]
    stop_hooks = [h for group in written["hooks"]["Stop"] for h in group["hooks"]]
    assert other in stop_hooks and len(stop_hooks) == 2
    server = read(project / ".mcp.json")["mcpServers"]["mnemex"]
    assert Path(server["command"]).is_absolute() and server["args"] == ["--db", db, "mcp"]
    invoke("--db", db, "install", "claude-code", "--project", str(project), "--uninstall")
    assert read(settings) == {"model": "opus", "hooks": {"Stop": [{"hooks": [other]}]}}
    assert read(project / ".mcp.json") == {}


def test_global_install_writes_the_user_files(tmp_path: Path, home: Path) -> None:
    (home / ".claude.json").write_text(json.dumps({"numStartups": 3}))
    invoke("--tenant", "me", "install", "claude-code", "--global")
    hooks = read(home / ".claude" / "settings.json")["hooks"]
    assert set(hooks) == {"UserPromptSubmit", "Stop"}
    assert "--tenant me hook stop" in hooks["Stop"][0]["hooks"][0]["command"]
    user = read(home / ".claude.json")
    assert user["numStartups"] == 3 and user["mcpServers"]["mnemex"]["args"][-1] == "mcp"


def test_claude_desktop_config_printed_or_written(tmp_path: Path, home: Path) -> None:
    printed = json.loads(invoke("install", "claude-desktop"))
    entry = printed["mcpServers"]["mnemex"]
    assert Path(entry["command"]).is_absolute() and entry["args"] == ["mcp"]
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {"files": {"command": "npx", "args": []}}}))
    invoke("install", "claude-desktop", "--write", "--config", str(config))
    assert set(read(config)["mcpServers"]) == {"files", "mnemex"}
    invoke("install", "claude-desktop", "--uninstall", "--config", str(config))
    assert set(read(config)["mcpServers"]) == {"files"}


def test_a_broken_config_is_reported_not_overwritten(tmp_path: Path, home: Path) -> None:
    config = tmp_path / "broken.json"
    config.write_text("{not json")
    result = runner.invoke(app, ["install", "claude-desktop", "--write", "--config", str(config)])
    assert result.exit_code == 2 and "not valid JSON" in " ".join(result.output.split())
    assert config.read_text() == "{not json"
