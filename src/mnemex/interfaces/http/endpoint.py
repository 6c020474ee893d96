"""Endpoints: a declared route (method, path, body and query models) around one store call.

The declaration drives both the request handling here and the OpenAPI document, so the two
cannot drift. Handlers are plain functions run in the thread pool (the store is synchronous).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from mnemex.errors import MnemexError
from mnemex.interfaces.http.errors import BadRequest, PayloadTooLarge, validation_details
from mnemex.models import to_jsonable
from mnemex.service import MemoryStore

DEFAULT_MAX_BODY = 4 * 1024 * 1024  # 4 MiB: a full batch of long memories, not a flood
MAX_JSON_DEPTH = 900  # about where Python's json gives up (its recursion limit); meta allows 32


class UnsupportedMediaType(MnemexError):
    """A request body not declared as JSON."""

    code = "unsupported_media_type"
    status = 415


class Invalid(MnemexError):
    """A body or query that does not fit its declared model."""

    code = "validation_error"
    status = 422


@dataclass(slots=True)
class Call:
    """One request, decoded: the tenant's store, the path parameters, the body and query."""

    store: MemoryStore
    path: dict[str, str]
    body: Any = None
    query: Any = None


Handler = Callable[[Call], Any]


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A route of the API and everything the OpenAPI document says about it."""

    method: str
    path: str
    handler: Handler
    summary: str
    tag: str
    body: type[BaseModel] | None = None
    query: type[BaseModel] | None = None
    status: int = 200
    media_type: str = "application/json"
    extra: dict[str, Any] = field(default_factory=dict)


async def read_body(request: Request, limit: int) -> bytes:
    """The raw body, refused with a 413 as soon as it passes `limit` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise PayloadTooLarge(f"body of {declared} bytes is over the limit", limit=limit)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise PayloadTooLarge(f"body is over the limit of {limit} bytes", limit=limit)
        chunks.append(chunk)
    return b"".join(chunks)


def parse_json(raw: bytes) -> Any:
    """JSON from a body; anything unreadable is a 400 here and nowhere else."""
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw)
        json.dumps(value, ensure_ascii=False).encode("utf-8")  # rejects lone surrogates
    except (ValueError, UnicodeError) as exc:
        raise BadRequest(f"body is not valid UTF-8 JSON: {exc}", field="body") from exc
    except RecursionError:
        raise BadRequest(
            "body: nested too deep to read", field="body", limit=MAX_JSON_DEPTH
        ) from None
    return value


def require_json(request: Request) -> None:
    """A body must say it is JSON: a browser sends text/plain or a form cross-site with no
    preflight, and a body that must be declared JSON cannot be planted that way."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json" and not (
        kind.startswith("application/") and kind.endswith("+json")
    ):
        raise UnsupportedMediaType(
            f"a body must be sent as application/json, not {kind or 'untyped'}",
            field="content-type",
            limit="application/json",
        )


def validate(model: type[BaseModel], data: Any, where: str) -> BaseModel:
    """`data` as `model`, or a 422 naming each field that does not fit."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        details = validation_details(exc, where)
        raise Invalid(f"the {where} does not match its schema", **details) from None


def query_data(request: Request, model: type[BaseModel]) -> dict[str, Any]:
    """Query parameters as a dict; list-typed fields take every repetition (?tags=a&tags=b)."""
    params = request.query_params
    data: dict[str, Any] = {}
    for name in params:
        info = model.model_fields.get(name)
        many = info is not None and "list" in str(info.annotation)
        data[name] = params.getlist(name) if many else params[name]
    return data


def to_route(endpoint: Endpoint, max_body: int) -> Route:
    """A Starlette route that decodes the request, calls the handler and encodes the result."""

    async def handle(request: Request) -> Response:
        store: MemoryStore = request.app.state.store
        tenant = request.scope.get("state", {}).get("tenant")
        call = Call(
            store=store if tenant in (None, store.tenant) else store.for_tenant(tenant),
            path=dict(request.path_params),
        )
        if endpoint.body is not None:
            raw = await read_body(request, max_body)
            if raw.strip():
                require_json(request)
            data = parse_json(raw)
            call.body = validate(endpoint.body, data, "body")
        if endpoint.query is not None:
            call.query = validate(endpoint.query, query_data(request, endpoint.query), "query")
        result = await run_in_threadpool(endpoint.handler, call)
        if isinstance(result, Response):
            return result
        return JSONResponse(to_jsonable(result), status_code=endpoint.status)

    return Route(endpoint.path, handle, methods=[endpoint.method])
