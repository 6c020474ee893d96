"""Typed errors with stable codes: every interface maps them to its own error shape in one place."""

from __future__ import annotations

from typing import Any


class MnemexError(Exception):
    """Base of every error Mnemex raises on purpose; `code` is stable and safe to match on."""

    code = "error"
    status = 500

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = {key: value for key, value in details.items() if value is not None}

    def to_dict(self) -> dict[str, Any]:
        """The JSON error body shared by the REST API, MCP tools and `--json` CLI output."""
        return {"code": self.code, "message": self.message, "details": self.details}


class NotFoundError(MnemexError):
    """A memory, fact, entity, review or cluster id that does not exist for this tenant."""

    code = "not_found"
    status = 404

    def __init__(self, kind: str, ident: str, message: str | None = None) -> None:
        super().__init__(message or f"{kind} {ident!r} not found", kind=kind, id=ident)


class InvalidInputError(MnemexError):
    """Bad input: names the field and, where there is one, the limit it broke."""

    code = "invalid_input"
    status = 400

    def __init__(self, field: str, message: str, *, limit: Any = None) -> None:
        super().__init__(f"{field}: {message}", field=field, limit=limit)
        self.field = field
        self.limit = limit


class ConflictError(MnemexError):
    """The request contradicts the current state (an id that already exists, a closed review)."""

    code = "conflict"
    status = 409


class StoreBusyError(MnemexError):
    """The store stayed locked by another writer for longer than the configured busy timeout."""

    code = "store_busy"
    status = 503


class StorageError(MnemexError):
    """The store could not be opened or migrated (wrong file, newer schema, corrupt file)."""

    code = "storage_error"
    status = 500


class UnauthorizedError(MnemexError):
    """A missing or unknown bearer token."""

    code = "unauthorized"
    status = 401


class ModelUnavailableError(MnemexError):
    """A configured model (embeddings, NER) could not be loaded."""

    code = "model_unavailable"
    status = 503


class FileError(MnemexError):
    """A file to read or write (export, import, backup) is missing, unwritable or not a file."""

    code = "file_error"
    status = 400
