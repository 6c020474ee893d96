"""CLI commands that run Mnemex as a service: serve (REST + MCP over HTTP) and mcp (stdio)."""

from __future__ import annotations

import typer

from mnemex.errors import InvalidInputError
from mnemex.interfaces.cli._app import command, err_console, open_store


@command("serve")
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to bind (non-loopback needs tokens)."),
    port: int = typer.Option(8765, help="Port to listen on."),
    require_token: bool = typer.Option(
        False, "--require-token", help="Refuse requests without a valid token, even on loopback."
    ),
    max_body: int = typer.Option(4 * 1024 * 1024, help="Largest request body in bytes."),
    allow_host: list[str] = typer.Option(
        [], "--allow-host", help="A host name clients may use (repeatable; loopback always)."
    ),
) -> None:
    """Serve the web console at /, the REST API at /v1 and MCP (streamable HTTP) at /mcp."""
    import uvicorn

    from mnemex.interfaces.http import create_app, is_loopback

    with open_store() as store:  # the app closes it on shutdown; closing twice is harmless
        public = not is_loopback(host)
        if public and not store.tokens.active():
            raise InvalidInputError(
                "host",
                f"{host} is reachable from other machines and no token exists: "
                "create one with `mnemex token create --tenant NAME` first",
            )
        app = create_app(
            store,
            require_token=public or require_token,
            max_body=max_body,
            host=host,
            owns_store=True,
            allowed_hosts=allow_host or None,
        )
        mode = "required" if public or require_token else "optional"
        err_console.print(
            f"mnemex serving {store.backend.location} on http://{host}:{port} "
            f"(console /, REST /v1, MCP /mcp, tokens {mode}); Ctrl-C stops",
            highlight=False,
        )
        uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5)


@command("mcp")
def mcp() -> None:
    """Speak MCP over stdio (Claude Desktop, Claude Code); the tenant is --tenant's."""
    import anyio

    from mnemex.interfaces.mcp.guard import run_stdio
    from mnemex.interfaces.mcp.server import build_server

    with open_store() as store:
        anyio.run(run_stdio, build_server(store))
