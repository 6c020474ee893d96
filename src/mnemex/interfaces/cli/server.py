"""CLI commands that run Mnemex as a service: serve (REST + MCP over HTTP) and mcp (stdio)."""

from __future__ import annotations

import typer

from mnemex.interfaces.cli._app import OPTIONS, command, console


@command("serve")
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to bind."),
    port: int = typer.Option(8765, help="Port to listen on."),
) -> None:
    """Serve the store over HTTP (a health endpoint until the REST API and MCP land)."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    import mnemex

    store = mnemex.open(OPTIONS.db, tenant=OPTIONS.tenant)

    async def health(request: Request) -> JSONResponse:
        del request
        return JSONResponse({"status": "ok", "store": store.backend.info()})

    app = Starlette(routes=[Route("/health", health)])
    console.print(f"mnemex serving {store.backend.location} on http://{host}:{port}")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning")
    finally:
        store.close()


@command("mcp")
def mcp() -> None:
    """Speak MCP over stdio (for Claude Desktop and Claude Code)."""
    raise typer.BadParameter("the MCP server is not part of this build yet")
