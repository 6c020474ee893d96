"""In-process clients for the interface tests: httpx on the ASGI app, the MCP SDK's client."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import httpx2
from mcp.client.streamable_http import streamable_http_client
from starlette.applications import Starlette

from mcp import Client

BASE = "http://127.0.0.1:8765"


@asynccontextmanager
async def rest(app: Starlette, token: str | None = None) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client on the app (lifespan running), optionally with a bearer token."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url=BASE, headers=headers) as client,
    ):
        yield client


@asynccontextmanager
async def mcp_http(app: Starlette, token: str | None = None) -> AsyncIterator[Client]:
    """An MCP client speaking streamable HTTP to the app's /mcp, in-process."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    http = httpx2.AsyncClient(
        transport=httpx2.ASGITransport(app=app), base_url=BASE, headers=headers
    )
    async with (
        app.router.lifespan_context(app),
        http,
        Client(streamable_http_client(f"{BASE}/mcp", http_client=http)) as client,
    ):
        yield client


async def call(client: Client, tool: str, **arguments: Any) -> tuple[Any, bool]:
    """A tool's JSON answer and whether it is an error."""
    result = await client.call_tool(tool, arguments)
    text = result.content[0].text  # type: ignore[union-attr]
    try:
        return json.loads(text), bool(result.is_error)
    except json.JSONDecodeError:
        return text, bool(result.is_error)


async def ok(client: Client, tool: str, **arguments: Any) -> Any:
    """A tool's JSON answer, failing the test when the tool reports an error."""
    data, failed = await call(client, tool, **arguments)
    assert not failed, data
    return data
