"""Shared CLI plumbing: the Typer app, global options, output and the one error mapping."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import typer
from rich.console import Console

from mnemex.errors import FileError, InvalidInputError, MnemexError
from mnemex.models import to_jsonable

app = typer.Typer(
    name="mnemex",
    help="Mnemex: a local-first temporal memory engine for LLM agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)


@dataclass
class Options:
    """Global options given before the command (or through MNEMEX_DB / MNEMEX_TENANT)."""

    db: str | None = None
    tenant: str = "default"


OPTIONS = Options()


@app.callback()
def _global(
    db: str | None = typer.Option(
        None, "--db", envvar="MNEMEX_DB", help="Store: a SQLite path or ':memory:'."
    ),
    tenant: str = typer.Option("default", "--tenant", envvar="MNEMEX_TENANT", help="Tenant."),
) -> None:
    """Mnemex: a local-first temporal memory engine for LLM agents."""
    OPTIONS.db = db
    OPTIONS.tenant = tenant


@contextmanager
def open_store(*, create: bool = True) -> Iterator[Any]:
    """The store named by the global options; errors become CLI errors in `run`.

    `create=False` (read commands): a path with no store there is an error, not a new store."""
    import mnemex

    store = mnemex.open(OPTIONS.db, tenant=OPTIONS.tenant, create=create)
    try:
        yield store
    finally:
        store.close()


def emit(value: Any, as_json: bool, render: Callable[[Any], None] | None = None) -> None:
    """Print a result: JSON when asked (or when no renderer exists), else the Rich rendering."""
    if as_json or render is None:
        sys.stdout.write(json.dumps(to_jsonable(value), ensure_ascii=False, indent=2) + "\n")
    else:
        render(value)


def fail(exc: MnemexError, as_json: bool) -> None:
    """The CLI's one error mapping: a message (or the JSON error body) and a non-zero exit."""
    if as_json:
        sys.stdout.write(json.dumps({"error": exc.to_dict()}, ensure_ascii=False) + "\n")
    else:
        err_console.print(f"[red]error[/red] ({exc.code}): {exc.message}", soft_wrap=True)
    raise typer.Exit(2 if isinstance(exc, InvalidInputError) else 1)


JSON_OPTION = typer.Option(False, "--json", help="Print JSON instead of a table.")


def command(
    *names: str, on: typer.Typer | None = None, **kwargs: Any
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register a command (on `app`, or the sub-app `on`) whose MnemexErrors go through `fail`."""

    def register(func: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(func)
        def wrapper(*args: Any, **inner: Any) -> None:
            as_json = bool(inner.get("as_json", False))
            try:
                func(*args, **inner)
            except MnemexError as exc:
                fail(exc, as_json)
            except UnicodeError as exc:  # invalid UTF-8 on standard input or in a file
                fail(InvalidInputError("input", f"not valid UTF-8: {exc}"), as_json)
            except OSError as exc:  # a file to read or write: missing, unwritable, a folder
                where = exc.filename or "a file"
                fail(FileError(f"{where}: {exc.strerror or exc}", path=str(where)), as_json)

        (on or app).command(*names, **kwargs)(wrapper)
        return wrapper

    return register
