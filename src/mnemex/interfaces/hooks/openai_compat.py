"""An OpenAI-compatible chat endpoint as an `llm(messages) -> str` function (stdlib only).

Imported only by `MemoryHarness.openai`, so Mnemex never needs an HTTP client library for it.
Works with Ollama (`http://localhost:11434/v1`), vLLM, llama.cpp's server and OpenAI itself.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

from mnemex.errors import ModelUnavailableError


def chat_completion(
    base_url: str,
    model: str,
    *,
    api_key: str | None = None,
    timeout: float = 120.0,
    options: dict[str, Any] | None = None,
) -> Callable[[list[dict[str, str]]], str]:
    """A function that sends chat messages to `{base_url}/chat/completions` and returns the text."""
    url = base_url.rstrip("/") + "/chat/completions"

    def call(messages: list[dict[str, str]]) -> str:
        body = {"model": model, "messages": messages, **(options or {})}
        request = urllib.request.Request(url, data=json.dumps(body).encode("utf-8"), method="POST")
        request.add_header("Content-Type", "application/json")
        if api_key:
            request.add_header("Authorization", f"Bearer {api_key}")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                answer = json.loads(response.read())
            return str(answer["choices"][0]["message"]["content"])
        except (OSError, ValueError, KeyError, IndexError, TypeError) as exc:
            raise ModelUnavailableError(f"chat endpoint {url} failed: {exc}", url=url) from exc

    return call
