"""The token table in SQLite (a SqliteBackend mixin): cross-tenant, outside any tenant's Tx."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlean

from mnemex.clock import from_micros, to_micros
from mnemex.store.api_tokens import Token

_COLUMNS = "id, tenant, name, created_at, last_used, revoked_at"


def _token(row: Sequence[Any]) -> Token:
    return Token(
        id=row[0],
        tenant=row[1],
        name=row[2],
        created_at=from_micros(row[3]),
        last_used=None if row[4] is None else from_micros(row[4]),
        revoked_at=None if row[5] is None else from_micros(row[5]),
    )


class TokenTable:
    """Token methods of SqliteBackend; each statement is its own (autocommit) transaction."""

    _lock: Any
    _writer: Any
    in_memory: bool
    busy_timeout_ms: int

    def _check_open(self) -> None:
        raise NotImplementedError

    def _reader(self) -> Any:
        raise NotImplementedError

    def _write_sql(self, sql: str, params: tuple[Any, ...]) -> int:
        self._check_open()
        with self._lock:
            return int(self._writer.execute(sql, params).rowcount)

    def _read_sql(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        self._check_open()
        if self.in_memory:
            with self._lock:
                return list(self._writer.execute(sql, params).fetchall())
        return list(self._reader().execute(sql, params).fetchall())

    def insert_token(self, token: Token, token_hash: str) -> None:
        """Store a new token under the hash of its secret."""
        self._write_sql(
            f"INSERT INTO tokens ({_COLUMNS}, token_hash) VALUES (?, ?, ?, ?, NULL, NULL, ?)",
            (token.id, token.tenant, token.name, to_micros(token.created_at), token_hash),
        )

    def token_by_hash(self, token_hash: str) -> Token | None:
        """The token whose secret hashes to `token_hash`, revoked or not."""
        rows = self._read_sql(f"SELECT {_COLUMNS} FROM tokens WHERE token_hash = ?", (token_hash,))
        return _token(rows[0]) if rows else None

    def list_tokens(self, tenant: str | None) -> list[Token]:
        """Every token, or one tenant's, oldest first."""
        if tenant is None:
            rows = self._read_sql(f"SELECT {_COLUMNS} FROM tokens ORDER BY created_at, id", ())
        else:
            rows = self._read_sql(
                f"SELECT {_COLUMNS} FROM tokens WHERE tenant = ? ORDER BY created_at, id",
                (tenant,),
            )
        return [_token(row) for row in rows]

    def revoke_token(self, token_id: str, at: datetime) -> bool:
        """Mark a token revoked; False when no such token exists."""
        found = self._read_sql("SELECT revoked_at FROM tokens WHERE id = ?", (token_id,))
        if not found:
            return False
        self._write_sql(
            "UPDATE tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?",
            (to_micros(at), token_id),
        )
        return True

    def touch_token(self, token_id: str, at: datetime) -> None:
        """Record a use of the token, if the store can be written at once: a last-use stamp is
        not worth making a request wait for another writer (the next use records it)."""
        self._check_open()
        if not self._lock.acquire(blocking=False):
            return
        try:
            self._writer.execute("PRAGMA busy_timeout = 0")
            with contextlib.suppress(sqlean.OperationalError):
                self._writer.execute(
                    "UPDATE tokens SET last_used = ? WHERE id = ?", (to_micros(at), token_id)
                )
        finally:
            self._writer.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            self._lock.release()

    def token_records(self) -> list[tuple[Token, str]]:
        """Every token with the hash of its secret, oldest first (to move a store)."""
        rows = self._read_sql(
            f"SELECT {_COLUMNS}, token_hash FROM tokens ORDER BY created_at, id", ()
        )
        return [(_token(row), str(row[-1])) for row in rows]
