"""The embedded default store: one SQLite file (through sqlean for a current FTS5), or ":memory:".

Writes go through one connection per process, each in `BEGIN IMMEDIATE` under a lock, so writers
queue instead of failing; other processes are waited for by SQLite's busy timeout (WAL mode lets
readers proceed meanwhile). Reads use a connection per thread. `:memory:` uses one connection.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlean

from mnemex.clock import system_clock, to_micros
from mnemex.errors import StorageError, StoreBusyError
from mnemex.store import migrations
from mnemex.store._sqlite_api_tokens import TokenTable
from mnemex.store._sqlite_checkpoint import BACKSTOP_PAGES, Checkpointer
from mnemex.store._sqlite_events import EventRows
from mnemex.store._sqlite_export import ExportRows
from mnemex.store._sqlite_graph import GraphRows
from mnemex.store._sqlite_ledger import LedgerRows
from mnemex.store._sqlite_maintenance import Maintenance
from mnemex.store._sqlite_memories import BM25_WEIGHTS, FTS_TOKENIZE, MemoryRows, indexed_columns
from mnemex.store._sqlite_purge import PurgeRows, compact_purged
from mnemex.store._sqlite_sources import SourceRows
from mnemex.store._sqlite_vectors import VectorRows
from mnemex.store.export import EXPORT_TABLES

# What the in-memory lexical index (retrieval/bm25.py) needs to rank as memories_fts does.
__all__ = ["BM25_WEIGHTS", "FTS_TOKENIZE", "SqliteBackend", "SqliteTx", "indexed_columns"]


class SqliteTx(
    MemoryRows, GraphRows, LedgerRows, EventRows, VectorRows, ExportRows, SourceRows, PurgeRows
):
    """A transaction on one connection, bound to one tenant."""

    def __init__(
        self, conn: Any, tenant: str, *, writable: bool, shared: dict[Any, Any] | None = None
    ) -> None:
        self.conn = conn
        self.tenant = tenant
        self.writable = writable
        self.shared = {} if shared is None else shared  # the backend's cache of slow aggregates

    def _writable(self) -> None:
        if not self.writable:
            raise RuntimeError("write attempted in a read transaction")


def _is_busy(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class SqliteBackend(TokenTable, Maintenance):
    """A SQLite store; safe to share between threads and with other processes on the same file."""

    searches_inside = False  # the engine keeps BM25 and vector indexes in memory (retrieval/)

    def __init__(self, location: str, *, busy_timeout_ms: int = 30_000) -> None:
        self.location = location
        self.in_memory = location == ":memory:"
        self.busy_timeout_ms = busy_timeout_ms
        self._lock = threading.RLock()  # the writer connection; held while a write waits
        self._readers_lock = threading.Lock()  # the reader list only: reads never wait on writes
        self._local = threading.local()
        self._shared: dict[Any, Any] = {}
        self._readers: list[Any] = []
        self._closed = False
        if not self.in_memory:
            try:
                Path(location).expanduser().parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StorageError(
                    f"cannot create the folder of store {location}: {exc.strerror or exc}",
                    location=location,
                ) from exc
        self._writer = self._open_and_migrate()
        self._checkpointer = None
        if not self.in_memory:
            self._checkpointer = Checkpointer(lambda: self._connect(writer=False))

    def _open_and_migrate(self) -> Any:
        """Connect and migrate, retrying while another process is creating or migrating the file.

        Switching a new file to WAL and the first schema write can report "locked" at once
        (SQLite's busy handler is not called there), so those steps retry with a backoff.
        """
        deadline = time.monotonic() + self.busy_timeout_ms / 1000
        delay = 0.005
        while True:
            conn = None
            try:
                conn = self._connect()
                with self._lock:
                    migrations.apply(conn, to_micros(system_clock()))
                return conn
            except sqlean.DatabaseError as exc:
                if conn is not None:
                    conn.close()
                if not _is_busy(exc):
                    raise StorageError(
                        f"cannot open store {self.location}: {exc}", location=self.location
                    ) from exc
                if time.monotonic() > deadline:
                    raise StoreBusyError(
                        f"store {self.location} stayed locked by another process",
                        timeout_ms=self.busy_timeout_ms,
                    ) from exc
                time.sleep(delay)
                delay = min(delay * 2, 0.25)

    def _connect(self, *, writer: bool = True) -> Any:
        conn = sqlean.connect(
            self.location,
            check_same_thread=False,
            isolation_level=None,
            timeout=self.busy_timeout_ms / 1000,
        )
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA temp_store = MEMORY")
        conn.execute("PRAGMA cache_size = -32000")
        if not self.in_memory:
            if writer:  # WAL is a property of the file; readers find it already set
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_PAGES}")  # see Checkpointer
            conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    def _reader(self) -> Any:
        conn = getattr(self._local, "reader", None)
        if conn is None:
            conn = self._connect(writer=False)
            self._local.reader = conn
            with self._readers_lock:
                self._readers.append(conn)
        return conn

    @contextmanager
    def write(self, tenant: str) -> Iterator[SqliteTx]:
        """A write transaction; nested calls on the same thread join the outer one."""
        active: SqliteTx | None = getattr(self._local, "write_tx", None)
        if active is not None:
            yield SqliteTx(active.conn, tenant, writable=True, shared=self._shared)
            return
        self._check_open()
        with self._lock:
            conn = self._writer
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlean.OperationalError as exc:
                if _is_busy(exc):
                    raise StoreBusyError(
                        "another process held the store's write lock past the busy timeout",
                        timeout_ms=self.busy_timeout_ms,
                    ) from exc
                raise
            tx = SqliteTx(conn, tenant, writable=True, shared=self._shared)
            self._local.write_tx = tx
            try:
                yield tx
                conn.execute("COMMIT")
                if self._checkpointer is not None:
                    self._checkpointer.written()
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            finally:
                self._local.write_tx = None

    @contextmanager
    def read(self, tenant: str) -> Iterator[SqliteTx]:
        """A read transaction (a consistent snapshot); inside a write it sees that write's rows."""
        active: SqliteTx | None = getattr(self._local, "write_tx", None)
        if active is not None:
            yield SqliteTx(active.conn, tenant, writable=False, shared=self._shared)
            return
        nested: SqliteTx | None = getattr(self._local, "read_tx", None)
        if nested is not None:
            yield SqliteTx(nested.conn, tenant, writable=False, shared=self._shared)
            return
        self._check_open()
        if self.in_memory:
            with self._lock:
                yield from self._snapshot(self._writer, tenant)
        else:
            yield from self._snapshot(self._reader(), tenant)

    def _snapshot(self, conn: Any, tenant: str) -> Iterator[SqliteTx]:
        tx = SqliteTx(conn, tenant, writable=False, shared=self._shared)
        conn.execute("BEGIN")
        self._local.read_tx = tx
        try:
            yield tx
        finally:
            self._local.read_tx = None
            conn.execute("COMMIT")

    def tenants(self) -> list[str]:
        """Every tenant holding any row, in name order."""
        union = " UNION ".join(f"SELECT tenant FROM {table}" for table in EXPORT_TABLES)
        with self.read("") as tx:
            rows = tx.conn.execute(f"SELECT tenant FROM ({union}) ORDER BY tenant").fetchall()
        return [str(row[0]) for row in rows]

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError("the store is closed", location=self.location)

    def compact_purged(self) -> None:
        """After a purge: merge the FTS segments and truncate the WAL (no old copy survives)."""
        self._check_open()
        with self._lock:
            compact_purged(self._writer, self.in_memory)

    def integrity_check(self) -> str:
        """SQLite's own verdict on the file ("ok" when healthy)."""
        with self._lock:
            return str(self._writer.execute("PRAGMA integrity_check").fetchone()[0])

    def info(self) -> dict[str, Any]:
        """Backend, location, schema version and file size, for stats and /health; read on a
        reader connection, so a writer waiting for another process's lock never delays it."""
        self._check_open()
        sql = "SELECT max(version) FROM schema_migrations"
        if self.in_memory:
            with self._lock:
                version = self._writer.execute(sql).fetchone()[0]
        else:
            version = self._reader().execute(sql).fetchone()[0]
        size = None
        if not self.in_memory and Path(self.location).exists():
            size = Path(self.location).stat().st_size
        return {
            "backend": "sqlite",
            "location": self.location,
            "schema_version": version,
            "sqlite_version": sqlean.sqlite_version,
            "file_bytes": size,
        }

    @contextmanager
    def bulk_load(self) -> Iterator[None]:
        """Filling an empty store: nothing to defer here (the vector index lives in memory)."""
        yield

    def close(self) -> None:
        """Close every connection; the file is left checkpointed and consistent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._checkpointer is not None:
                self._checkpointer.close()
            with self._readers_lock:
                for conn in self._readers:
                    conn.close()
                self._readers.clear()
            if not self.in_memory:
                # Another process may be busy with the file; its own close checkpoints then.
                with contextlib.suppress(sqlean.OperationalError):
                    self._writer.execute("PRAGMA wal_checkpoint(PASSIVE)")
            self._writer.close()
