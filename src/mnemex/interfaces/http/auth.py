"""Bearer-token authentication: every request is bound to the tenant of its token.

`required`: a request without a valid token gets a 401. Otherwise (loopback only) a request
without a token runs as the server's default tenant, and one with a token must still present a
valid one. `/health`, `/openapi.json` and the console's static files (`/`, `/console/...`: no
data, the pages ask for a token and send it with every API call) are open in both modes.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from mnemex.errors import UnauthorizedError
from mnemex.interfaces.http.errors import error_response
from mnemex.service import MemoryStore

OPEN_PATHS = frozenset({"/health", "/openapi.json", "/"})
OPEN_PREFIXES = ("/console/",)  # the console's static files: they hold no data


class BearerAuth:
    """ASGI middleware that puts the request's tenant in `scope["state"]["tenant"]`."""

    def __init__(self, app: ASGIApp, *, store: MemoryStore, required: bool) -> None:
        self.app = app
        self.store = store
        self.required = required

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or path in OPEN_PATHS or path.startswith(OPEN_PREFIXES):
            await self.app(scope, receive, send)
            return
        try:
            tenant = await self._tenant(Headers(scope=scope).get("authorization"))
        except UnauthorizedError as exc:
            response = error_response(exc.status, exc.code, exc.message)
            await response(scope, receive, send)
            return
        scope.setdefault("state", {})["tenant"] = tenant
        await self.app(scope, receive, send)

    async def _tenant(self, header: str | None) -> str:
        if header is None:
            if self.required:
                raise UnauthorizedError("a bearer token is required (mnemex token create)")
            return self.store.tenant
        scheme, _, secret = header.partition(" ")
        if scheme.lower() != "bearer" or not secret.strip():
            raise UnauthorizedError("expected 'Authorization: Bearer <token>'")
        token = await run_in_threadpool(self.store.tokens.verify, secret.strip())
        return token.tenant
