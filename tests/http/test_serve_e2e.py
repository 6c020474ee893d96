"""End to end: `mnemex serve` as a process (REST and MCP over HTTP) and `mnemex mcp` over stdio."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

import mnemex
from mcp import Client
from tests.clients import ok

pytestmark = [pytest.mark.slow, pytest.mark.anyio]
MNEMEX = str(Path(sys.executable).parent / "mnemex")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def http(method: str, url: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:  # the first save loads models
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, str, Path, subprocess.Popen[str]]]:
    db = tmp_path / "served.db"
    with mnemex.open(db) as store:
        _, secret = store.tokens.create("e2e")
    port = free_port()
    env_args = [MNEMEX, "--db", str(db), "serve", "--port", str(port), "--require-token"]
    process = subprocess.Popen(env_args, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{base}/health", timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"server did not start: {process.communicate()[1]}")
            time.sleep(0.1)
    yield base, secret, db, process
    if process.poll() is None:
        process.kill()
    process.communicate()  # also closes the stderr pipe


async def test_serve_answers_rest_and_mcp_then_shuts_down_cleanly(
    served: tuple[str, str, Path, subprocess.Popen[str]],
) -> None:
    base, secret, db, process = served
    status, body = http("POST", f"{base}/v1/memories", {"content": "e2e: the kiln runs hot"})
    assert status == 401 and body["error"]["code"] == "unauthorized"
    status, body = http("POST", f"{base}/v1/memories", {"content": "the kiln runs hot"}, secret)
    assert status == 201
    rest_id = body["id"]
    headers = {"Authorization": f"Bearer {secret}"}
    async with (
        httpx2.AsyncClient(headers=headers) as session,
        Client(streamable_http_client(f"{base}/mcp", http_client=session)) as client,
    ):
        found = await ok(client, "search_memory", query="kiln")
        assert [hit["id"] for hit in found["items"]] == [rest_id]
        saved = await ok(client, "save_memory", content="the glaze needs cone 6")
        assert (await ok(client, "memory_stats"))["tenant"] == "e2e"
    status, body = http("POST", f"{base}/v1/search", {"query": "glaze cone"}, secret)
    assert body["hits"][0]["memory"]["id"] == saved["id"]
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=20)
    assert not Path(f"{db}-wal").exists()  # the store was closed, its log checkpointed


def test_serve_refuses_a_public_address_without_tokens(tmp_path: Path) -> None:
    result = subprocess.run(
        [MNEMEX, "--db", str(tmp_path / "x.db"), "serve", "--host", "0.0.0.0"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0 and "token" in result.stderr


async def test_mcp_over_stdio(tmp_path: Path) -> None:
    db = tmp_path / "stdio.db"
    params = StdioServerParameters(
        command=MNEMEX, args=["--db", str(db), "--tenant", "desk", "mcp"]
    )
    async with Client(params) as client:
        saved = await ok(client, "save_memory", content="stdio: the printer is on floor 3")
        found = await ok(client, "search_memory", query="printer floor")
        stats = await ok(client, "memory_stats")
    assert [hit["id"] for hit in found["items"]] == [saved["id"]]
    assert stats["tenant"] == "desk"
    with mnemex.open(db, tenant="desk") as store:
        assert store.get(saved["id"]).content == "stdio: the printer is on floor 3"


def test_the_stdio_server_writes_nothing_but_protocol_messages(tmp_path: Path) -> None:
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "save_memory", "arguments": {"content": "raw stdio works"}},
        },
    ]
    process = subprocess.Popen(
        [MNEMEX, "--db", str(tmp_path / "raw.db"), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    for message in messages:
        process.stdin.write(json.dumps(message) + "\n")
    process.stdin.flush()
    replies: list[dict[str, Any]] = []
    while not any(reply.get("id") == 2 for reply in replies):  # bounded by the reply or EOF
        line = process.stdout.readline()
        if not line:
            break
        replies.append(json.loads(line))  # any stray print would fail here
    process.stdin.close()
    process.wait(timeout=30)
    process.stdout.close()
    assert all(reply["jsonrpc"] == "2.0" for reply in replies)
    saved = next(reply for reply in replies if reply.get("id") == 2)
    assert json.loads(saved["result"]["content"][0]["text"])["action"] == "created"
