"""API tokens: random 256-bit secrets kept only as sha256 hashes, each bound to one tenant.

Tokens live beside the tenants, not inside one: the registry is the admin surface that maps a
bearer secret to the tenant every request of that secret is then confined to.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from mnemex import limits
from mnemex.clock import Clock
from mnemex.errors import NotFoundError, UnauthorizedError
from mnemex.models import new_id

PREFIX = "mnx_"
CHECK_TTL_S = 5.0  # a revocation reaches a running server within this many seconds
LAST_USED_EVERY_S = 60.0  # last_used is written at most once a minute per token


@dataclass(slots=True)
class Token:
    """A token's public record: never the secret, which is shown once, at creation."""

    id: str
    tenant: str
    name: str | None
    created_at: datetime
    last_used: datetime | None = None
    revoked_at: datetime | None = None


class TokenBackend(Protocol):
    """The cross-tenant token table of a store (see Backend)."""

    def insert_token(self, token: Token, token_hash: str) -> None: ...
    def token_by_hash(self, token_hash: str) -> Token | None: ...
    def list_tokens(self, tenant: str | None) -> list[Token]: ...
    def revoke_token(self, token_id: str, at: datetime) -> bool: ...
    def touch_token(self, token_id: str, at: datetime) -> None: ...
    def token_records(self) -> list[tuple[Token, str]]: ...


def new_secret() -> str:
    """A fresh bearer secret: 32 random bytes, URL-safe, with a recognisable prefix."""
    return PREFIX + secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    """The stored form of a secret (sha256 suffices: secrets are random, not passwords)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class TokenRegistry:
    """Create, check, list and revoke tokens; checks are cached briefly to keep requests cheap."""

    def __init__(self, backend: TokenBackend, clock: Clock) -> None:
        self.backend = backend
        self.clock = clock
        self._checked: dict[str, tuple[Token, float]] = {}
        self._touched: dict[str, float] = {}
        self._lock = threading.Lock()

    def create(self, tenant: str, name: str | None = None) -> tuple[Token, str]:
        """A new token for `tenant` and its secret (the only time the secret is available)."""
        token = Token(
            id=new_id("tok"),
            tenant=limits.check_text(tenant, "tenant", 64),
            name=limits.check_optional_text(name, "name", 200),
            created_at=self.clock(),
        )
        secret = new_secret()
        self.backend.insert_token(token, hash_secret(secret))
        return token, secret

    def verify(self, secret: str) -> Token:
        """The live token of a bearer secret; UnauthorizedError when unknown or revoked."""
        digest = hash_secret(secret)
        now = time.monotonic()
        with self._lock:
            cached = self._checked.get(digest)
        if cached is not None and cached[1] > now:
            token = cached[0]
        else:
            found = self.backend.token_by_hash(digest)
            if found is None or found.revoked_at is not None:
                raise UnauthorizedError("unknown or revoked token")
            token = found
            with self._lock:
                self._checked[digest] = (token, now + CHECK_TTL_S)
        self._note_use(token, now)
        return token

    def _note_use(self, token: Token, now: float) -> None:
        with self._lock:
            if self._touched.get(token.id, -LAST_USED_EVERY_S) + LAST_USED_EVERY_S > now:
                return
            self._touched[token.id] = now
        self.backend.touch_token(token.id, self.clock())

    def list(self, tenant: str | None = None) -> list[Token]:
        """Every token (or one tenant's), oldest first, revoked ones included."""
        return self.backend.list_tokens(tenant)

    def revoke(self, token_id: str) -> Token:
        """Revoke a token by id; requests with it fail from now on (within CHECK_TTL_S)."""
        limits.check_text(token_id, "id", 100)
        if not self.backend.revoke_token(token_id, self.clock()):
            raise NotFoundError("token", token_id)
        with self._lock:
            self._checked = {k: v for k, v in self._checked.items() if v[0].id != token_id}
        return next(t for t in self.backend.list_tokens(None) if t.id == token_id)

    def active(self) -> bool:
        """Whether at least one unrevoked token exists (a server on a public address needs one)."""
        return any(token.revoked_at is None for token in self.backend.list_tokens(None))
