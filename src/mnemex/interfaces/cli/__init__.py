"""The `mnemex` command line: a thin layer over MemoryStore (Typer + Rich, `--json` on reads)."""

from __future__ import annotations

from mnemex.interfaces.cli import (
    bench,
    browse,
    data,
    hooks,
    ingest,
    ledger,
    lifecycle,
    maint,
    memories,
    server,
    tokens,
    upkeep,
)
from mnemex.interfaces.cli._app import app

__all__ = ["app", "main"]
_COMMAND_MODULES = (
    bench,
    browse,
    data,
    hooks,
    ingest,
    ledger,
    lifecycle,
    maint,
    memories,
    server,
    tokens,
    upkeep,
)


def main() -> None:
    """Console-script entry point."""
    app()
