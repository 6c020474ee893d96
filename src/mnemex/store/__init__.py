"""Storage backends behind one Protocol, and the factory that picks one from a target string."""

from __future__ import annotations

import os
from pathlib import Path

from mnemex.config import Settings
from mnemex.errors import InvalidInputError
from mnemex.store.base import Backend, MemoryFilter, Tx

__all__ = [
    "Backend",
    "MemoryFilter",
    "Tx",
    "open_backend",
    "redact",
    "resolve_target",
    "shown_location",
]


def resolve_target(target: str | os.PathLike[str] | None, settings: Settings) -> str:
    """The store location: the argument, else MNEMEX_DB (settings.db), else the default file."""
    if target is None:
        target = settings.db
    if target is None:
        return str(settings.default_db_path)
    text = os.fspath(target)
    if text == ":memory:" or text.startswith(("postgresql://", "postgres://")):
        return text
    if text.startswith("sqlite://"):  # sqlite:///path/file.db names /path/file.db
        text = text.removeprefix("sqlite://") or ":memory:"
        if text == ":memory:":
            return text
    return str(Path(text).expanduser())


def open_backend(target: str | os.PathLike[str] | None, settings: Settings) -> Backend:
    """Open (creating and migrating if needed) the store named by `target`."""
    location = resolve_target(target, settings)
    if location.startswith(("postgresql://", "postgres://")):
        try:
            from mnemex.store.postgres import PostgresBackend
        except ImportError as exc:
            raise InvalidInputError(
                "target", "the PostgreSQL backend needs psycopg: pip install 'mnemex[postgres]'"
            ) from exc
        return PostgresBackend(location)
    from mnemex.store.sqlite import SqliteBackend

    return SqliteBackend(location, busy_timeout_ms=settings.busy_timeout_ms)


def redact(location: str) -> str:
    """A connection URI without its password, for messages and stats."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(location)
    if parts.password is None:
        return location
    host = parts.hostname or ""
    if parts.port is not None:
        host += f":{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=user + host))


def shown_location(location: str) -> str:
    """A store's location as stats show it: a file's name (never the server's folders), or a
    URI's scheme, host and database (no user, password or query, which may carry either)."""
    from urllib.parse import urlsplit

    if "://" not in location:
        return Path(location).name
    parts = urlsplit(location)
    host = parts.hostname or ""
    if parts.port is not None:
        host += f":{parts.port}"
    return f"{parts.scheme}://{host}{parts.path}"
