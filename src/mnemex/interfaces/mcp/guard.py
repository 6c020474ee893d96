"""Every MCP request gets an answer in the shared JSON error shape, however hostile its arguments.

Two holes of the SDK are closed here. Its argument errors come back as pydantic's plain text and
unknown arguments are dropped: `GuardedServer.call_tool` answers both as `{"error": ...}`. Over
stdio, a line its JSON parser refuses (a lone surrogate, nesting past its recursion limit) is
logged and never answered, so the client waits forever: `answerable` rewrites such a line into
a request the server answers with an error.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.stdio import stdio_server
from mcp.types import CallToolResult, TextContent, jsonrpc_message_adapter
from pydantic import ValidationError

from mnemex.config import MAX_META_DEPTH
from mnemex.errors import InvalidInputError, MnemexError
from mnemex.interfaces.mcp import compact

REJECTED = "_mnemex_rejected"  # an argument only `answerable` writes: the line's error
_ID = re.compile(r'"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")')
_TOOL = re.compile(r'"name"\s*:\s*"([A-Za-z0-9_\-]{1,64})"')
_ARGUMENT_DEPTH = MAX_META_DEPTH + 1  # meta (the deepest argument) plus itself


def error_result(error: MnemexError) -> CallToolResult:
    """A tool answer carrying the shared error body."""
    text = compact.dumps({"error": error.to_dict()})
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def _validation_error(exc: ValidationError) -> MnemexError:
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return InvalidInputError("arguments", "do not match the tool's schema")
    first = errors[0]
    field = ".".join(str(part) for part in first["loc"]) or "arguments"
    context: dict[str, Any] = dict(first.get("ctx") or {})
    limit = next(
        (context[key] for key in ("le", "lt", "ge", "gt", "max_length") if key in context), None
    )
    error = InvalidInputError(
        field, str(first["msg"]), limit=limit if limit is None else str(limit)
    )
    error.details["errors"] = [
        {"field": ".".join(str(p) for p in e["loc"]), "message": e["msg"]} for e in errors
    ]
    return error


class GuardedServer(MCPServer):
    """The SDK's server with Mnemex's error shape on every tool failure."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        if isinstance(arguments.get(REJECTED), dict):
            rejected = arguments[REJECTED]
            return error_result(
                InvalidInputError(str(rejected.get("field")), str(rejected.get("message")),
                                  limit=rejected.get("limit"))
            )  # fmt: skip
        tool = self._tool_manager.get_tool(name)
        if tool is not None:
            known = set(tool.parameters.get("properties", {}))
            unknown = sorted(set(arguments) - known)
            if unknown:
                return error_result(InvalidInputError(unknown[0], f"unknown argument of {name}"))
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            error = MnemexError("the tool failed to answer this request")
            error.code = "internal_error"
            return error_result(error)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                return error_result(_validation_error(exc.__cause__))
            return error_result(InvalidInputError("name", str(exc)))


def _rejection(message: Any, line: str) -> InvalidInputError:
    """What is wrong with a tool call's arguments the SDK could not read."""
    arguments = message.get("params", {}).get("arguments") if isinstance(message, dict) else None
    if isinstance(arguments, dict):
        for name, value in arguments.items():
            problem = _unreadable(value)
            if problem is not None:
                limit = _ARGUMENT_DEPTH if "nested" in problem else None
                return InvalidInputError(str(name), problem, limit=limit)
    if message is None:
        return InvalidInputError(
            "arguments", "not readable as JSON (nested too deep?)", limit=_ARGUMENT_DEPTH
        )
    return InvalidInputError("arguments", "not readable by the MCP server's JSON parser")


def _unreadable(value: object) -> str | None:
    """Why the SDK's parser refused an argument: a lone surrogate or nesting past its limit
    (the store names the exact limit once the value reaches it)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, str) and any("\ud800" <= c <= "\udfff" for c in node):
            return "must not contain lone surrogates (invalid UTF-8)"
        if isinstance(node, dict | list):
            if depth > _ARGUMENT_DEPTH:
                return f"nested over {_ARGUMENT_DEPTH} levels"
            items = list(node.items()) if isinstance(node, dict) else [(None, v) for v in node]
            for key, item in items:
                if isinstance(key, str):
                    stack.append((key, depth))
                stack.append((item, depth + 1))
    return None


def answerable(line: str) -> str:
    """The line itself, or, when the SDK cannot read it, a request it answers with the error."""
    try:
        jsonrpc_message_adapter.validate_json(line, by_name=False)
        return line
    except ValueError:
        pass
    try:
        message: Any = json.loads(line)
    except (ValueError, RecursionError):
        message = None
    if isinstance(message, dict) and "id" in message:
        request_id: Any = message["id"]
    else:
        found = _ID.search(line[:10_000])
        if found is None:
            return line  # a notification or noise: nothing to answer
        request_id = json.loads(found.group(1))
    if not isinstance(request_id, int | str) or isinstance(request_id, bool):
        return line
    method = message.get("method") if isinstance(message, dict) else None
    if method is None and '"tools/call"' in line[:10_000]:
        method = "tools/call"
    if method == "tools/call":
        params = message.get("params") if isinstance(message, dict) else None
        name = params.get("name") if isinstance(params, dict) else None
        if not isinstance(name, str):
            found_name = _TOOL.search(line[:10_000])
            name = found_name.group(1) if found_name else "unknown"
        error = _rejection(message, line)
        rejected = {"field": error.field, "message": error.message, "limit": error.limit}
        params = {"name": name, "arguments": {REJECTED: rejected}}
        return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
    # Any other request: an unknown method, which the server answers with a JSON-RPC error.
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "mnemex/unreadable-request"})


class _Lines:
    """Standard input as an async iterator of answerable lines (what stdio_server reads)."""

    def __init__(self) -> None:
        text = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
        self._file = anyio.wrap_file(text)

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async for line in self._file:
            yield answerable(line)


async def run_stdio(server: MCPServer) -> None:
    """Serve `server` over stdio, every request answered."""
    lowlevel = server._lowlevel_server
    async with stdio_server(stdin=_Lines()) as (read_stream, write_stream):  # type: ignore[arg-type]
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
