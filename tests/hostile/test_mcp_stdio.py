"""MCP over stdio answers every request, however hostile its arguments (a real subprocess)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow

ANSWER_WITHIN_S = 60.0  # the first call loads the models; a hang is the failure


def deep_meta(depth: int) -> str:
    return '{"a": ' * depth + "1" + "}" * depth


def test_every_stdio_request_gets_an_answer(tmp_path: Path) -> None:
    env = {**os.environ, "MNEMEX_DATA_DIR": str(tmp_path / "data")}
    env.pop("MNEMEX_CONFIG", None)
    process = subprocess.Popen(
        [sys.executable, "-c", "from mnemex.interfaces.cli import main; main()",
         "--db", str(tmp_path / "s.db"), "mcp"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    lines: queue.Queue[bytes] = queue.Queue()
    assert process.stdout is not None and process.stdin is not None
    threading.Thread(target=lambda: [lines.put(x) for x in process.stdout], daemon=True).start()

    def send(raw: str) -> None:
        assert process.stdin is not None
        process.stdin.write(raw.encode("utf-8") + b"\n")
        process.stdin.flush()

    def answer(request_id: int) -> dict[str, Any]:
        while True:
            message = json.loads(lines.get(timeout=ANSWER_WITHIN_S))
            if message.get("id") == request_id:
                return dict(message)

    try:
        send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "0"}}}))  # fmt: skip
        assert "result" in answer(1)
        send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        hostile = [
            '{"content": "a \\ud800"}',
            '{"content": "deep", "meta": ' + deep_meta(600) + "}",
            '{"content": "deeper", "meta": ' + deep_meta(5_000) + "}",
            '{"content": "x", "tags": ["a\\u0000"]}',
        ]
        for offset, arguments in enumerate(hostile):
            request_id = 10 + offset
            send(
                f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", "params": '
                f'{{"name": "save_memory", "arguments": {arguments}}}}}'
            )
            reply = answer(request_id)
            result = reply.get("result") or {}
            assert "error" in reply or result.get("isError"), reply
        send(json.dumps({"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": {
            "name": "save_memory", "arguments": {"content": "still alive"}}}))  # fmt: skip
        reply = answer(99)
        assert not reply["result"].get("isError"), reply
    finally:
        process.stdin.close()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()
