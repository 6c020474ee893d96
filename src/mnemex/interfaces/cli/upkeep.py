"""CLI commands of store upkeep: backup, verify, merge (restore PATH lives with restore ID)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from mnemex.errors import FileError
from mnemex.interfaces.cli._app import JSON_OPTION, OPTIONS, command, emit, open_store
from mnemex.interfaces.cli._output import say


@command("backup")
def backup(
    target: Path = typer.Argument(..., help="The file to write (must not exist)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Copy the whole store (every tenant, vectors included) to a file, safely while it runs."""
    with open_store(create=False) as store:
        result = store.backup(target)
    emit(result, as_json, lambda r: say(f"backed up to {r['path']} ({r['bytes']} bytes)"))


@command("verify")
def verify(as_json: bool = JSON_OPTION) -> None:
    """Check the store: integrity, FTS, one current value per key, embeddings, orphan rows.
    Exit status 0 when every check passes, 1 otherwise."""
    with open_store(create=False) as store:
        report = store.verify()

    def render(r: dict[str, Any]) -> None:
        for check in r["checks"]:
            mark = "ok  " if check["ok"] else "FAIL"
            say(f"{mark} {check['name']}" + ("" if check["ok"] else f": {check['found']}"))

    emit(report, as_json, render)
    if not report["ok"]:
        raise typer.Exit(1)


@command("merge")
def merge(
    first: Path = typer.Argument(..., help="A store."),
    second: Path = typer.Argument(..., help="Another store."),
    output: Path = typer.Option(..., "-o", "--output", help="The merged store (must not exist)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Merge two stores into a new one: memories unioned, duplicates folded (usage at the max),
    entities unified, facts laid by the ledger's rules (one current value per key)."""
    if output.exists():
        raise FileError(f"{output} exists: merge writes a new store", path=str(output))
    for source in (first, second):
        if not source.is_file():
            raise FileError(f"no store at {source}", path=str(source))
    OPTIONS.db = str(output)
    with open_store() as store:
        report = store.merge([first, second])
    emit(
        report,
        as_json,
        lambda r: say(
            f"merged into {output}: imported {r['imported']}, already there {r['skipped']}, "
            f"folded {r['folded']} duplicates, {r['keys']} keys, rejected {r['rejected']}"
        ),
    )
