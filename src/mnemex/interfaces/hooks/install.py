"""Install Mnemex into Claude Code (hooks + MCP server) and Claude Desktop (MCP server).

Every edit is a merge into the existing JSON: other settings are kept, Mnemex's own entries are
replaced (so installing twice changes nothing) or, with uninstall, removed. Commands use
absolute paths, because hooks and MCP servers run from whatever directory the client is in.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

from mnemex.errors import InvalidInputError

SERVER_NAME = "mnemex"
HOOKS = {"UserPromptSubmit": ("user-prompt-submit", 5), "Stop": ("stop", 15)}


def executable() -> list[str]:
    """The absolute command that runs the `mnemex` CLI of this installation."""
    beside = Path(sys.executable).parent / ("mnemex.exe" if os.name == "nt" else "mnemex")
    if beside.exists():
        return [str(beside.absolute())]
    found = shutil.which("mnemex")
    if found:
        return [str(Path(found).absolute())]
    return [sys.executable, "-c", "from mnemex.interfaces.cli import main; main()"]


def base_args(db: str | None, tenant: str) -> list[str]:
    """The global options the installed commands repeat (store and tenant)."""
    args = [] if db is None else ["--db", db if db == ":memory:" else str(Path(db).absolute())]
    return args + ([] if tenant == "default" else ["--tenant", tenant])


def _read(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except ValueError as exc:
        raise InvalidInputError("config", f"{path} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise InvalidInputError("config", f"{path} does not hold a JSON object")
    return data


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".mnemex-tmp")
    temporary.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    temporary.replace(path)


def _is_ours(hook: Any) -> bool:
    command = hook.get("command", "") if isinstance(hook, dict) else ""
    return "mnemex" in command and any(f" hook {name}" in command for name, _ in HOOKS.values())


def merge_hooks(settings: dict[str, Any], prefix: list[str], remove: bool) -> dict[str, Any]:
    """`settings` with Mnemex's hook entries replaced (or removed); other hooks untouched."""
    hooks = dict(settings.get("hooks") or {})
    for event, (name, timeout) in HOOKS.items():
        groups = []
        for group in hooks.get(event) or []:
            kept = [hook for hook in group.get("hooks", []) if not _is_ours(hook)]
            if kept:
                groups.append({**group, "hooks": kept})
        if not remove:
            command = shlex.join([*prefix, "hook", name])
            groups.append({"hooks": [{"type": "command", "command": command, "timeout": timeout}]})
        if groups:
            hooks[event] = groups
        else:
            hooks.pop(event, None)
    merged = {key: value for key, value in settings.items() if key != "hooks"}
    return {**merged, "hooks": hooks} if hooks else merged


def server_entry(prefix: list[str], *, typed: bool) -> dict[str, Any]:
    """The MCP server entry that runs `mnemex mcp` ("type" is for Claude Code's files)."""
    entry: dict[str, Any] = {"command": prefix[0], "args": [*prefix[1:], "mcp"]}
    return {"type": "stdio", **entry} if typed else entry


def merge_server(config: dict[str, Any], entry: dict[str, Any] | None) -> dict[str, Any]:
    """`config` with the Mnemex MCP server set to `entry` (None removes it)."""
    servers = dict(config.get("mcpServers") or {})
    servers.pop(SERVER_NAME, None)
    if entry is not None:
        servers[SERVER_NAME] = entry
    merged = {key: value for key, value in config.items() if key != "mcpServers"}
    return {**merged, "mcpServers": servers} if servers else merged


def claude_code(
    prefix: list[str], *, project: Path, home: Path, global_: bool, remove: bool
) -> list[Path]:
    """Write (or remove) the hooks and the MCP server for Claude Code; the files changed."""
    if global_:
        settings_path, servers_path = home / ".claude" / "settings.json", home / ".claude.json"
    else:  # absolute paths are machine-specific: the local (uncommitted) settings file
        settings_path = project / ".claude" / "settings.local.json"
        servers_path = project / ".mcp.json"
    _write(settings_path, merge_hooks(_read(settings_path), prefix, remove))
    entry = None if remove else server_entry(prefix, typed=True)
    _write(servers_path, merge_server(_read(servers_path), entry))
    return [settings_path, servers_path]


def desktop_config_path(home: Path) -> Path:
    """Where Claude Desktop reads its MCP servers on this platform."""
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    if os.name == "nt":
        appdata = os.environ.get("APPDATA") or str(home / "AppData" / "Roaming")
        return Path(appdata) / "Claude" / "claude_desktop_config.json"
    return home / ".config" / "Claude" / "claude_desktop_config.json"


def claude_desktop(prefix: list[str], path: Path, *, remove: bool) -> Path:
    """Write (or remove) the Mnemex MCP server in Claude Desktop's config."""
    entry = None if remove else server_entry(prefix, typed=False)
    _write(path, merge_server(_read(path), entry))
    return path
