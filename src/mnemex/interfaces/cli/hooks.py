"""`mnemex hook ...` (run by Claude Code) and `mnemex install ...` (set up agent clients)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import typer

from mnemex.interfaces.cli._app import OPTIONS, app, command, console

PROMPT_BUDGET_S = 3.0  # the user is waiting for Claude to see the prompt
STOP_BUDGET_S = 10.0  # after the answer: room to load the analyser, still bounded
hook_app = typer.Typer(help="Agent hooks: read the client's JSON on stdin, never block it.")
install_app = typer.Typer(help="Install Mnemex into agent clients (Claude Code, Claude Desktop).")
app.add_typer(hook_app, name="hook", no_args_is_help=True)
app.add_typer(install_app, name="install", no_args_is_help=True)


def _payload() -> dict[str, Any]:
    try:
        data = json.loads(sys.stdin.read() or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _backend() -> Any:
    """The running server named by MNEMEX_URL, else the store itself (opened by the caller)."""
    from mnemex.interfaces.hooks.backend import HttpBackend, LocalBackend

    url = os.environ.get("MNEMEX_URL")
    if url:
        return HttpBackend(url, os.environ.get("MNEMEX_TOKEN"))
    import mnemex

    return LocalBackend(mnemex.open(OPTIONS.db, tenant=OPTIONS.tenant))


def _run(work: Any, budget: float) -> None:
    """Run a hook within `budget` seconds of process start, print its output, exit 0."""
    from mnemex.interfaces.hooks.claude_code import remaining, within

    output = within(remaining(budget), work)
    if output:
        sys.stdout.write(json.dumps(output, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # do not wait for a recall that overran its deadline


def _closing(backend: Any, action: Any) -> Any:
    try:
        return action(backend)
    finally:
        store = getattr(backend, "store", None)
        if store is not None:
            store.close()


@hook_app.command("user-prompt-submit")
def user_prompt_submit() -> None:
    """UserPromptSubmit: inject recalled memories as a <recalled-memory> block."""
    from mnemex.config import Settings
    from mnemex.interfaces.hooks.cache import RecallCache
    from mnemex.interfaces.hooks.claude_code import on_prompt

    payload = _payload()

    def work() -> Any:
        cache = RecallCache(Settings.load().data_dir / "hooks" / "recall-cache.json")
        return _closing(_backend(), lambda backend: on_prompt(payload, backend, cache))

    _run(work, PROMPT_BUDGET_S)


@hook_app.command("stop")
def stop() -> None:
    """Stop: analyse the turn and save the user's message only if analysis recommends it."""
    from mnemex.interfaces.hooks.claude_code import on_stop

    payload = _payload()

    def work() -> None:
        _closing(_backend(), lambda backend: on_stop(payload, backend))

    _run(work, STOP_BUDGET_S)


def _prefix() -> list[str]:
    from mnemex.interfaces.hooks import install

    return install.executable() + install.base_args(OPTIONS.db, OPTIONS.tenant)


@command("claude-code", on=install_app)
def install_claude_code(
    global_: bool = typer.Option(False, "--global", help="For every project (~/.claude)."),
    uninstall: bool = typer.Option(False, "--uninstall", help="Remove what install added."),
    project: Path = typer.Option(Path("."), help="The project directory (default: here)."),
) -> None:
    """Add the recall and save hooks and the MCP server to Claude Code (idempotent)."""
    from mnemex.interfaces.hooks import install

    paths = install.claude_code(
        _prefix(), project=project.absolute(), home=Path.home(), global_=global_, remove=uninstall
    )
    verb = "removed from" if uninstall else "written to"
    console.print(f"mnemex hooks and MCP server {verb}: " + ", ".join(map(str, paths)))


@command("claude-desktop", on=install_app)
def install_claude_desktop(
    write: bool = typer.Option(False, "--write", help="Edit Claude Desktop's config file."),
    uninstall: bool = typer.Option(False, "--uninstall", help="Remove the server from it."),
    config: Path | None = typer.Option(None, help="The config file (default: the platform's)."),
) -> None:
    """Print (or --write) the MCP server config for Claude Desktop."""
    from mnemex.interfaces.hooks import install

    if not write and not uninstall:
        entry = install.server_entry(_prefix(), typed=False)
        sys.stdout.write(json.dumps({"mcpServers": {install.SERVER_NAME: entry}}, indent=2) + "\n")
        return
    path = config or install.desktop_config_path(Path.home())
    install.claude_desktop(_prefix(), path, remove=uninstall)
    console.print(f"mnemex MCP server {'removed from' if uninstall else 'written to'} {path}")
