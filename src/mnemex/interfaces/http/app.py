"""The ASGI application: REST routes, MCP over streamable HTTP at /mcp, auth and one error shape."""

from __future__ import annotations

import contextlib
import ipaddress
from collections.abc import AsyncIterator, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from mnemex import __version__
from mnemex.interfaces.http import console
from mnemex.interfaces.http.auth import BearerAuth
from mnemex.interfaces.http.endpoint import DEFAULT_MAX_BODY, to_route
from mnemex.interfaces.http.errors import EXCEPTION_HANDLERS
from mnemex.interfaces.http.openapi import document
from mnemex.interfaces.http.origin import LOOPBACK_NAMES, OriginGuard, host_name
from mnemex.interfaces.http.routes import ENDPOINTS
from mnemex.interfaces.http.routes.browse import models_loaded
from mnemex.service import MemoryStore


def is_loopback(host: str) -> bool:
    """Whether binding `host` keeps the server reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


async def health(request: Request) -> Response:
    """GET /health: the store answers, which models are loaded; no token needed."""
    store: MemoryStore = request.app.state.store
    try:
        info: dict[str, Any] = await run_in_threadpool(store.backend.info)
    except Exception as exc:  # a failing store is what this endpoint exists to report
        body = {"status": "degraded", "store": {"ok": False, "error": type(exc).__name__}}
        return JSONResponse(body, status_code=503)
    info = {key: value for key, value in info.items() if key != "location"}
    models = models_loaded(store)
    return JSONResponse(
        {
            "status": "ok",
            "version": __version__,
            "auth": "required" if request.app.state.require_token else "optional",
            "store": {"ok": True, **info},
            "models": models,
            "embed_model": store.settings.embed_model,
        }
    )


async def openapi(request: Request) -> Response:
    """GET /openapi.json."""
    return JSONResponse(request.app.state.openapi)


def create_app(
    store: MemoryStore,
    *,
    require_token: bool = False,
    mcp: bool = True,
    max_body: int = DEFAULT_MAX_BODY,
    host: str = "127.0.0.1",
    owns_store: bool = False,
    allowed_hosts: Sequence[str] | None = None,
) -> Starlette:
    """The app for `store`: each request runs as its token's tenant (or the store's own).

    `owns_store`: close the store when the server shuts down (uvicorn re-raises the signal
    that stopped it, so code after `uvicorn.run` may never run). `allowed_hosts`: the names
    clients may use in Host (and Origin); default the loopback names on a loopback bind, any
    name on a public one (where tokens are required).
    """
    if allowed_hosts is not None:
        hosts: frozenset[str] | None = frozenset(allowed_hosts) | LOOPBACK_NAMES
    elif is_loopback(host):
        hosts = LOOPBACK_NAMES | {host_name(host)}
    else:
        hosts = None
    routes: list[BaseRoute] = [Route("/health", health), Route("/openapi.json", openapi)]
    routes += [to_route(endpoint, max_body) for endpoint in ENDPOINTS]
    routes += console.routes()
    server = None
    if mcp:
        from mnemex.interfaces.mcp.server import build_server

        server = build_server(store)
        mcp_app = server.streamable_http_app(
            stateless_http=True, json_response=True, max_request_body_size=max_body, host=host
        )
        routes += mcp_app.routes

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            if server is not None:
                await stack.enter_async_context(server.session_manager.run())
            yield
        if owns_store:  # graceful shutdown: in-flight requests are done, the file is closed
            store.close()

    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(OriginGuard, hosts=hosts),
            Middleware(BearerAuth, store=store, required=require_token),
        ],
        exception_handlers=EXCEPTION_HANDLERS,
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.require_token = require_token
    app.state.openapi = document(ENDPOINTS, __version__)
    return app
