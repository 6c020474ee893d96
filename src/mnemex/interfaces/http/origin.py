"""Who may talk to the server: the Host and Origin checks every route passes first.

A page in the user's browser can send a "simple" cross-site request (a `text/plain` POST, no
CORS preflight) to the loopback server, and a DNS-rebinding page can read it under its own
host name. So every request must name an allowed host (loopback names by default), and one
carrying an Origin must come from an allowed host too (the console is same-origin, so its
requests pass). Writes must be `application/json` (checked where the body is read, endpoint.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from mnemex.interfaces.http.errors import error_response

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


def host_name(value: str) -> str:
    """The host of a Host header or URL authority, without the port, lowercased."""
    value = value.strip().lower()
    if value.startswith("["):  # [::1]:8765
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class OriginGuard:
    """ASGI middleware: a foreign Host is a 421, a foreign Origin a 403."""

    def __init__(self, app: ASGIApp, *, hosts: Iterable[str] | None) -> None:
        self.app = app
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts)

    def allowed(self, host: str) -> bool:
        """Whether `host` (no port) may be named; None: any (a public bind without a list)."""
        return self.hosts is None or host in self.hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = host_name(headers.get("host", ""))
        if not self.allowed(host):
            response = error_response(
                421, "forbidden_host", f"host {host!r} is not served here", {"field": "host"}
            )
            await response(scope, receive, send)
            return
        origin = headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin)
            source = host_name(parts.netloc) if parts.scheme in ("http", "https") else ""
            same = parts.netloc.lower() == headers.get("host", "").strip().lower()
            if not source or not (self.allowed(source) and same):
                response = error_response(
                    403,
                    "forbidden_origin",
                    f"requests from {origin!r} are not accepted (cross-origin)",
                    {"field": "origin"},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
