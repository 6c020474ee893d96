"""The REST API's one error shape, `{"error": {"code", "message", "details"}}`, mapped here only."""

from __future__ import annotations

import logging
from typing import Any

from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from mnemex.errors import MnemexError
from mnemex.models import to_jsonable

log = logging.getLogger("mnemex.http")

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
}


class PayloadTooLarge(MnemexError):
    """A request body over the server's size limit."""

    code = "payload_too_large"
    status = 413


class BadRequest(MnemexError):
    """A body that is not JSON (or not UTF-8): the one place a parse error becomes a 400."""

    code = "bad_request"
    status = 400


def error_response(
    status: int, code: str, message: str, details: dict[str, Any] | None = None
) -> JSONResponse:
    """A response in the one error shape."""
    body = {"error": {"code": code, "message": message, "details": to_jsonable(details or {})}}
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(body, status_code=status, headers=headers)


def validation_details(exc: ValidationError, where: str) -> dict[str, Any]:
    """Pydantic's complaints as field paths and messages (never the rejected values)."""
    errors = [
        {"field": ".".join(str(part) for part in error["loc"]), "message": error["msg"]}
        for error in exc.errors(include_url=False, include_input=False, include_context=False)
    ]
    return {"in": where, "errors": errors}


async def on_mnemex_error(request: Request, exc: Exception) -> Response:
    """A typed Mnemex error: its own status and code."""
    assert isinstance(exc, MnemexError)
    return error_response(exc.status, exc.code, exc.message, exc.details)


async def on_http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (unknown route, wrong method) in the same shape."""
    assert isinstance(exc, HTTPException)
    code = _HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
    return error_response(exc.status_code, code, str(exc.detail))


async def on_crash(request: Request, exc: Exception) -> Response:
    """Anything unexpected: logged with its traceback, answered without internals."""
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, "internal_error", "the server failed to answer this request")


EXCEPTION_HANDLERS: dict[Any, Any] = {
    MnemexError: on_mnemex_error,
    HTTPException: on_http_error,
    Exception: on_crash,
}
