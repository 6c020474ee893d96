"""Where hooks send their calls: the store in-process, or a running `mnemex serve` over HTTP.

A running server has its models loaded, so a hook answers in milliseconds; without one the hook
opens the store itself (the SQLite file is shared safely between processes).
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any, Protocol

from mnemex.errors import MnemexError, ModelUnavailableError
from mnemex.models import to_jsonable
from mnemex.service import MemoryStore


class HookBackend(Protocol):
    """The calls hooks make."""

    scope: str  # identifies store and tenant (the recall cache is kept per scope)

    def recall(self, prompt: str, k: int) -> str: ...
    def analyze(self, message: str, context: str | None) -> dict[str, Any]: ...
    def save(self, fields: dict[str, Any]) -> str: ...
    def observe(self, ids: list[str]) -> None: ...


class LocalBackend:
    """Calls a MemoryStore in this process."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.scope = f"{store.backend.location}#{store.tenant}"

    def recall(self, prompt: str, k: int) -> str:
        """The <recalled-memory> block for `prompt` ("" when nothing matches)."""
        return self.store.recall(prompt, k=k).block

    def analyze(self, message: str, context: str | None) -> dict[str, Any]:
        """The store's analysis of `message` as plain JSON."""
        analysis = self.store.analyze(message, context=context)
        return dict(to_jsonable(analysis))

    def save(self, fields: dict[str, Any]) -> str:
        """Save and return the new memory's id."""
        return self.store.save(**fields).id

    def observe(self, ids: list[str]) -> None:
        """Count the memories a reply used (ids of this store only; others are ignored)."""
        known = [memory_id for memory_id in ids if _exists(self.store, memory_id)]
        if known:
            self.store.observe(known)


class HttpBackend:
    """Calls the REST API of a running server (MNEMEX_URL, with MNEMEX_TOKEN if set)."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 2.5) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.scope = self.url + ("#" + token[:12] if token else "")

    def _post(self, path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            self.url + path, data=json.dumps(body).encode("utf-8"), method="POST"
        )
        request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            error = json.loads(exc.read() or b"{}").get("error", {})
            raise MnemexError(error.get("message", str(exc)), code=error.get("code")) from exc
        except OSError as exc:
            raise ModelUnavailableError(f"mnemex server at {self.url} unreachable: {exc}") from exc

    def recall(self, prompt: str, k: int) -> str:
        """POST /v1/recall."""
        return str(self._post("/v1/recall", {"prompt": prompt, "k": k})["block"])

    def analyze(self, message: str, context: str | None) -> dict[str, Any]:
        """POST /v1/analyze."""
        return dict(self._post("/v1/analyze", {"message": message, "context": context}))

    def observe(self, ids: list[str]) -> None:
        """POST /v1/observe (an id this store does not know fails the call: then nothing)."""
        try:
            self._post("/v1/observe", {"ids": ids})
        except MnemexError:
            return

    def save(self, fields: dict[str, Any]) -> str:
        """POST /v1/memories."""
        body = {key: value for key, value in fields.items() if value is not None}
        return str(self._post("/v1/memories", body)["id"])


def _exists(store: MemoryStore, memory_id: str) -> bool:
    try:
        store.get(memory_id)
    except MnemexError:
        return False
    return True
