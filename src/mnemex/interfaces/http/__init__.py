"""The REST API (and MCP over HTTP at /mcp) as one ASGI app: `create_app(store)`."""

from __future__ import annotations

from mnemex.interfaces.http.app import create_app, is_loopback

__all__ = ["create_app", "is_loopback"]
