"""The PostgreSQL store (psycopg 3 and psycopg_pool, pgvector): one database for any number of
stateless server processes.

- Every transaction sets `mnemex.tenant` for itself (SET LOCAL), which row-level security checks
  behind the tenant clause each query carries.
- Writes of one tenant are serialised by a transaction-scoped advisory lock on the tenant: the
  read-then-write steps of the engine (a key's current value before its supersession, a content
  hash before a duplicate) see what the previous writer committed, as under SQLite's single
  writer. Other tenants write in parallel; reads never wait for it.
- Reads run in REPEATABLE READ, READ ONLY transactions: one consistent snapshot per read.
- Lexical and vector search run in SQL (`searches_inside`), so a server keeps no index in memory.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from mnemex.clock import system_clock, to_micros
from mnemex.errors import StorageError, StoreBusyError
from mnemex.store import pg_migrations, redact
from mnemex.store._pg_events import PgEventRows
from mnemex.store._pg_export import PgExportRows
from mnemex.store._pg_graph import PgGraphRows, PgGraphUpkeep
from mnemex.store._pg_ledger import PgLedgerRows
from mnemex.store._pg_memories import PgMemoryRows
from mnemex.store._pg_purge import PURGED_TABLES, PgPurgeRows
from mnemex.store._pg_vectors import BUILD_MEMORY, DEFERRED_INDEXES, PgVectorRows
from mnemex.store._sqlite_api_tokens import _COLUMNS as _TOKEN_COLUMNS
from mnemex.store._sqlite_api_tokens import _token
from mnemex.store.api_tokens import Token
from mnemex.store.pg_migrations import BULK_SETTING, lexicon_rebuild

POOL_MAX = 8  # connections per process; a server's threads share them
_TENANT_LOCK_SEED = 0x6D6E78  # hashtextextended seed of the per-tenant write lock


class PgTx(
    PgMemoryRows,
    PgGraphRows,
    PgGraphUpkeep,
    PgLedgerRows,
    PgEventRows,
    PgVectorRows,
    PgExportRows,
    PgPurgeRows,
):
    """A transaction on one pooled connection, bound to one tenant."""

    def __init__(self, conn: Any, tenant: str, *, writable: bool, shared: dict[Any, Any]) -> None:
        self.conn = conn
        self.tenant = tenant
        self.writable = writable
        self.shared = shared

    def _writable(self) -> None:
        if not self.writable:
            raise RuntimeError("write attempted in a read transaction")


class PostgresBackend:
    """A PostgreSQL store; safe to share between threads, processes and machines."""

    searches_inside = True

    def __init__(self, location: str, *, pool_max: int = POOL_MAX, timeout_s: float = 30.0) -> None:
        import psycopg
        from psycopg_pool import ConnectionPool

        self.location = location
        self._shared: dict[Any, Any] = {}
        self._known: set[str] = set()  # tenants this process has seen written (in `tenants`)
        self._local = threading.local()
        self._errors = psycopg.Error
        try:
            with psycopg.connect(location, autocommit=True) as conn:
                pg_migrations.apply(conn, to_micros(system_clock()))
        except psycopg.Error as exc:
            raise StorageError(
                f"cannot open store {redact(location)}: {exc}", location=redact(location)
            ) from exc
        self._pool = ConnectionPool(
            location,
            min_size=1,
            max_size=pool_max,
            kwargs={"autocommit": True},
            timeout=timeout_s,
            open=True,
        )
        self._closed = False

    # -- transactions ---------------------------------------------------------------------------

    @contextmanager
    def _joined(self, active: PgTx, tenant: str, writable: bool) -> Iterator[PgTx]:
        """A transaction inside the thread's open one (for another tenant: switched meanwhile)."""
        if tenant == active.tenant:
            yield PgTx(active.conn, tenant, writable=writable, shared=self._shared)
            return
        active.conn.execute("SELECT set_config('mnemex.tenant', %s, true)", (tenant,))
        if writable:
            self._local.bulk_tenants.add(tenant)
        try:
            yield PgTx(active.conn, tenant, writable=writable, shared=self._shared)
        finally:
            active.conn.execute("SELECT set_config('mnemex.tenant', %s, true)", (active.tenant,))

    @contextmanager
    def write(self, tenant: str) -> Iterator[PgTx]:
        """A write transaction; nested calls on the same thread join the outer one."""
        active: PgTx | None = getattr(self._local, "tx", None)
        if active is not None:
            if not active.writable:
                raise RuntimeError("write attempted inside a read transaction")
            with self._joined(active, tenant, True) as tx:
                yield tx
            return
        self._check_open()
        with self._connection() as conn:
            conn.execute("BEGIN")
            try:
                conn.execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended(%s, %s)), "
                    "set_config('mnemex.tenant', %s, true)",
                    (tenant, _TENANT_LOCK_SEED, tenant),
                )
                if tenant not in self._known:
                    conn.execute(
                        "INSERT INTO tenants (name) VALUES (%s) ON CONFLICT DO NOTHING", (tenant,)
                    )
                bulk = DEFERRED_INDEXES in self._shared
                if bulk:  # the BM25 statistics are counted once, below
                    conn.execute("SELECT set_config(%s, 'on', true)", (BULK_SETTING,))
                tx = PgTx(conn, tenant, writable=True, shared=self._shared)
                self._local.tx = tx
                self._local.bulk_tenants = {tenant}
                try:
                    yield tx
                finally:
                    self._local.tx = None
                if bulk:
                    for written in sorted(self._local.bulk_tenants):
                        conn.execute("SELECT set_config('mnemex.tenant', %s, true)", (written,))
                        lexicon_rebuild(conn, written)
                conn.execute("COMMIT")
                self._known.add(tenant)
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    @contextmanager
    def read(self, tenant: str) -> Iterator[PgTx]:
        """A read transaction (one snapshot); inside a write it sees that write's rows."""
        active: PgTx | None = getattr(self._local, "tx", None)
        if active is not None:
            with self._joined(active, tenant, False) as tx:
                yield tx
            return
        self._check_open()
        with self._connection() as conn:
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            try:
                conn.execute("SELECT set_config('mnemex.tenant', %s, true)", (tenant,))
                tx = PgTx(conn, tenant, writable=False, shared=self._shared)
                self._local.tx = tx
                try:
                    yield tx
                finally:
                    self._local.tx = None
            finally:
                conn.execute("ROLLBACK")  # nothing to keep: the transaction was read-only

    @contextmanager
    def bulk_load(self) -> Iterator[None]:
        """Filling an empty store (`mnemex migrate`): vectors written meanwhile skip the HNSW
        index, which is built once over all of them when the load ends, as pgvector advises
        for an initial load (growing the graph one vector at a time costs far more), and each
        write transaction counts its tenants' BM25 statistics once, before it commits, instead
        of row by row (pg_migrations.py, migration 13)."""
        deferred: set[int] = set()
        self._shared[DEFERRED_INDEXES] = deferred
        try:
            yield
        finally:  # a load that failed half-way still gets the index of what it committed
            del self._shared[DEFERRED_INDEXES]
            self._build_indexes(deferred)

    def _build_indexes(self, deferred: set[int]) -> None:
        """The HNSW index of each dimension a bulk load wrote, built in one pass each."""
        with self._connection() as conn:
            for dim in sorted(deferred):
                conn.execute("BEGIN")
                try:
                    conn.execute(f"SET LOCAL maintenance_work_mem = '{BUILD_MEMORY}'")
                    PgTx(conn, "", writable=True, shared=self._shared).ensure_index(dim)
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise

    @contextmanager
    def _connection(self) -> Iterator[Any]:
        """A pooled connection; a pool still empty after the timeout is StoreBusyError."""
        from psycopg_pool import PoolTimeout

        try:
            conn = self._pool.getconn()
        except PoolTimeout as exc:
            raise StoreBusyError(
                f"no free connection to {redact(self.location)} (pool of {self._pool.max_size})",
                timeout_ms=int(self._pool.timeout * 1000),
            ) from exc
        try:
            yield conn
        finally:
            self._pool.putconn(conn)

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError("the store is closed", location=redact(self.location))

    # -- the cross-tenant token table (no row-level security: it maps secrets to tenants) -----

    def _sql(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        self._check_open()
        with self._connection() as conn:
            cursor = conn.execute(sql, params)
            return list(cursor.fetchall()) if cursor.description else []

    def insert_token(self, token: Token, token_hash: str) -> None:
        """Store a new token under the hash of its secret."""
        self._sql(
            f"INSERT INTO tokens ({_TOKEN_COLUMNS}, token_hash) "
            "VALUES (%s, %s, %s, %s, NULL, NULL, %s)",
            (token.id, token.tenant, token.name, to_micros(token.created_at), token_hash),
        )

    def token_by_hash(self, token_hash: str) -> Token | None:
        """The token whose secret hashes to `token_hash`, revoked or not."""
        rows = self._sql(
            f"SELECT {_TOKEN_COLUMNS} FROM tokens WHERE token_hash = %s", (token_hash,)
        )
        return _token(rows[0]) if rows else None

    def list_tokens(self, tenant: str | None) -> list[Token]:
        """Every token, or one tenant's, oldest first."""
        if tenant is None:
            rows = self._sql(f"SELECT {_TOKEN_COLUMNS} FROM tokens ORDER BY created_at, id", ())
        else:
            rows = self._sql(
                f"SELECT {_TOKEN_COLUMNS} FROM tokens WHERE tenant = %s ORDER BY created_at, id",
                (tenant,),
            )
        return [_token(row) for row in rows]

    def revoke_token(self, token_id: str, at: datetime) -> bool:
        """Mark a token revoked; False when no such token exists."""
        rows = self._sql(
            "UPDATE tokens SET revoked_at = coalesce(revoked_at, %s) WHERE id = %s RETURNING id",
            (to_micros(at), token_id),
        )
        return bool(rows)

    def touch_token(self, token_id: str, at: datetime) -> None:
        """Record a use of the token."""
        self._sql("UPDATE tokens SET last_used = %s WHERE id = %s", (to_micros(at), token_id))

    def token_records(self) -> list[tuple[Token, str]]:
        """Every token with the hash of its secret, oldest first (to move a store)."""
        rows = self._sql(
            f"SELECT {_TOKEN_COLUMNS}, token_hash FROM tokens ORDER BY created_at, id", ()
        )
        return [(_token(row), str(row[-1])) for row in rows]

    def tenants(self) -> list[str]:
        """Every tenant that has written to the store, in name order (the `tenants` table sits
        outside row-level security: it is how a whole store is listed)."""
        return [str(row[0]) for row in self._sql("SELECT name FROM tenants ORDER BY name", ())]

    # -- bookkeeping ----------------------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        """Backend, location (without password), schema version and database size."""
        rows = self._sql(
            "SELECT (SELECT max(version) FROM schema_migrations),"
            " current_setting('server_version'), pg_database_size(current_database()),"
            " (SELECT extversion FROM pg_extension WHERE extname = 'vector')",
            (),
        )
        version, server, size, vector = rows[0]
        return {
            "backend": "postgresql",
            "location": redact(self.location),
            "schema_version": version,
            "postgres_version": server,
            "pgvector_version": vector,
            "file_bytes": int(size),
        }

    def compact_purged(self) -> None:
        """After a purge commits: VACUUM the tables it touched (outside any transaction, on a
        pooled autocommit connection), so the dead rows and their index entries are removed
        now rather than when autovacuum comes by. PostgreSQL does not zero the freed space and
        its WAL keeps the rows until recycled; a role that does not own the tables gets a
        warning from the server and nothing is vacuumed (the purge itself stands)."""
        self._sql(f"VACUUM {', '.join(PURGED_TABLES)}", ())

    def integrity_check(self) -> str:
        """ "ok" when the database answers (PostgreSQL keeps its own pages consistent)."""
        self._sql("SELECT 1", ())
        return "ok"

    def close(self) -> None:
        """Close the pool's connections."""
        if self._closed:
            return
        self._closed = True
        self._pool.close()
