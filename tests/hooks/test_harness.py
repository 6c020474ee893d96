"""MemoryHarness around any LLM function, and the optional OpenAI-compatible adapter."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, ClassVar

import pytest

from mnemex import MemoryStore, ModelUnavailableError
from mnemex.interfaces.hooks import MemoryHarness
from mnemex.interfaces.hooks.openai_compat import chat_completion


class EchoLLM:
    """An LLM stand-in that records the messages it gets."""

    def __init__(self, reply: str = "Sure.") -> None:
        self.reply = reply
        self.seen: list[list[dict[str, str]]] = []

    def __call__(self, messages: list[dict[str, str]]) -> str:
        self.seen.append(messages)
        return self.reply


def test_recalled_memories_reach_the_llm(mem_store: MemoryStore) -> None:
    saved = mem_store.save("Nadia is allergic to peanuts", entities=["Nadia"])
    llm = EchoLLM("No peanuts then.")
    harness = MemoryHarness(llm, mem_store, save=False)
    history = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    assert harness("Plan a snack for Nadia's peanuts question", history) == "No peanuts then."
    system, *rest = llm.seen[0]
    assert system["role"] == "system" and "<recalled-memory>" in system["content"]
    assert "allergic to peanuts" in system["content"]
    assert rest[:2] == history and rest[-1]["content"].startswith("Plan a snack")
    assert harness.last is not None and harness.last.recalled == [saved.id]


def test_a_non_string_reply_is_an_error(mem_store: MemoryStore) -> None:
    harness = MemoryHarness(lambda messages: None, mem_store, save=False)  # type: ignore[arg-type,return-value]
    with pytest.raises(TypeError):
        harness("hello there")


def test_the_harness_saves_what_analysis_recommends(mem_store: MemoryStore) -> None:
    harness = MemoryHarness(EchoLLM(), mem_store)
    harness("Remember that my flight to Lisbon leaves on May 3rd")
    assert harness.last is not None and harness.last.saved is not None
    harness("thanks")
    assert harness.last.saved is None


class _ChatHandler(BaseHTTPRequestHandler):
    requests: ClassVar[list[dict[str, Any]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _ChatHandler.requests.append(
            {"path": self.path, "auth": self.headers["Authorization"], **body}
        )
        answer = {"choices": [{"message": {"role": "assistant", "content": "from the server"}}]}
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def chat_server() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _ChatHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/v1"
    server.shutdown()
    server.server_close()
    thread.join()


def test_openai_compatible_endpoint(chat_server: str, mem_store: MemoryStore) -> None:
    mem_store.save("The staging database is called atlas-stg")
    harness = MemoryHarness.openai(
        chat_server, "llama3.2", api_key="sk-local", store=mem_store, save=False
    )
    assert harness("what is the staging database called?") == "from the server"
    sent = _ChatHandler.requests[-1]
    assert sent["path"] == "/v1/chat/completions" and sent["model"] == "llama3.2"
    assert sent["auth"] == "Bearer sk-local" and "atlas-stg" in sent["messages"][0]["content"]


def test_an_unreachable_endpoint_is_a_typed_error() -> None:
    call = chat_completion("http://127.0.0.1:9/v1", "m", timeout=2)
    with pytest.raises(ModelUnavailableError):
        call([{"role": "user", "content": "hi"}])


def test_the_adapter_is_not_imported_unless_used() -> None:
    code = (
        "import sys, mnemex.interfaces.hooks; "
        "print('mnemex.interfaces.hooks.openai_compat' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
